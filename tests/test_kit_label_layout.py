from labs.kit import label_sides
from hypothesis import given
from hypothesis import strategies as st

from labs.kit.label_layout import covered, label_box, overlap


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


def test_stopping_at_the_first_free_place_picks_what_min_picks(monkeypatch):
    import random

    import labs
    from labs.kit import label_layout

    rng = random.Random(4)
    clouds = [[(rng.uniform(-1, 1), rng.uniform(-1, 1)) for _ in range(rng.randint(1, 15))] for _ in range(40)]
    words = ["re", "regina", "uomo", "donna", "x", "un nome lungo"]
    texts = [[rng.choice(words) for _ in cloud] for cloud in clouds]
    asks = [[(rng.choice(words), 12, [(rng.uniform(0, 300), rng.uniform(0, 200), rng.choice(("start", "middle", "end")))
                                      for _ in range(8)]) for _ in range(10)] for _ in range(40)]
    views = [str(lab.view(lab.compute(lab.parse({})))) for lab in labs.all_labs()]

    def results():
        return ([label_sides(c, t, (-1, 1), (-1, 1), 400) for c, t in zip(clouds, texts)],
                [label_layout.place_labels(a, bounds=(0, 0, 300, 200)) for a in asks])

    fast = results()
    monkeypatch.setattr(label_layout, "cheapest", lambda candidates, cost: min(candidates, key=cost))
    assert results() == fast
    assert [str(lab.view(lab.compute(lab.parse({})))) for lab in labs.all_labs()] == views


@given(st.lists(st.tuples(*[st.floats(-50, 50)] * 4), max_size=12), st.tuples(*[st.floats(-50, 50)] * 4),
       st.one_of(st.none(), st.integers(0, 12)))
def test_covered_adds_up_the_overlaps(boxes, box, skip):
    boxes = [(min(a, c), min(b, d), max(a, c), max(b, d)) for a, b, c, d in boxes]
    box = (min(box[0], box[2]), min(box[1], box[3]), max(box[0], box[2]), max(box[1], box[3]))
    expected = sum(overlap(box, other) for k, other in enumerate(boxes) if k != skip)
    assert covered(box, boxes, skip) == expected
