from labs.kit import label_sides
from labs.kit.label_layout import label_box, overlap


def test_a_lonely_point_keeps_the_default_side():
    assert label_sides([(0.0, 0.0)], ["gatto"], (-1, 1), (-1, 1), 400) == ["ne"]


def test_two_close_points_put_their_labels_apart():
    points, texts = [(0.0, 0.0), (0.02, -0.02)], ["gatto", "cane"]
    sides = label_sides(points, texts, (-1, 1), (-1, 1), 400)
    boxes = [label_box(200 + 200 * x, 200 - 200 * y, t, s, 7.6, 14.0) for (x, y), t, s in zip(points, texts, sides)]
    assert overlap(*boxes) == 0


def test_labels_stay_inside_the_drawing():
    (side,) = label_sides([(0.99, 0.99)], ["divano"], (-1, 1), (-1, 1), 400)
    assert side in ("sw", "w", "s")
