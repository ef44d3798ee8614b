import random
from types import SimpleNamespace

from hypothesis import given
from hypothesis import strategies as st

from labs.kit import label_sides
from labs.kit.label_layout import covered, label_box, overlap, place_labels, text_box, text_width


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


def place_labels_by_min(requests, taken=(), bounds=None):
    """place_labels as its docstring says it, with nothing written out: for each label the cheapest
    place by text_box, covered and overlap, the first of equal costs."""
    taken, chosen = list(taken), []
    for text, size, candidates in requests:

        def cost(place):
            box = text_box(*place[:2], text, size, place[2])
            outside = (box[2] - box[0]) * (box[3] - box[1]) - overlap(box, bounds) if bounds else 0.0
            return covered(box, taken) + outside

        best = min(candidates, key=cost)
        chosen.append(best)
        taken.append(text_box(*best[:2], text, size, best[2]))
    return chosen


def test_place_labels_picks_what_min_picks_on_crowded_drawings():
    # many labels on few places, the places on a grid (ties) and off it, boxes taken beforehand, bounds or not
    rng = random.Random(7)
    words = ["re", "regina", "uomo", "donna", "x", "un nome lungo", ""]
    for _ in range(300):
        grid = rng.random() < 0.5
        spot = (lambda: float(rng.randrange(0, 300, 20))) if grid else (lambda: rng.uniform(-20, 320))
        taken = [text_box(spot(), spot(), rng.choice(words), 12) for _ in range(rng.randint(0, 20))]
        asks = [
            (
                rng.choice(words),
                rng.choice((10, 12, 13)),
                [(spot(), spot(), rng.choice(("start", "middle", "end"))) for _ in range(rng.randint(1, 12))],
            )
            for _ in range(rng.randint(1, 25))
        ]
        bounds = rng.choice((None, (0, 0, 300, 200)))
        assert place_labels(asks, taken, bounds) == place_labels_by_min(asks, taken, bounds)


@given(
    st.floats(-100, 600),
    st.floats(-100, 600),
    st.sampled_from(["", "re", "un nome lungo", "x" * 80]),
    st.sampled_from(["start", "middle", "end"]),
    st.integers(20, 500),
    st.integers(20, 500),
)
def test_a_label_kept_inside_the_drawing_is_where_min_and_max_put_it(x, y, text, anchor, width, height):
    from labs.kit.planes import LABEL, inside

    frame = SimpleNamespace(width=width, height=height)
    w = text_width(text, LABEL)
    low = {"start": 4, "middle": 4 + w / 2, "end": 4 + w}[anchor]
    high = width - {"start": 4 + w, "middle": 4 + w / 2, "end": 4}[anchor]
    expected = min(max(x, low), max(low, high)), min(max(y, 10), height - 10)
    got = inside(frame, x, y, text, anchor)
    assert got == expected and list(map(type, got)) == list(map(type, expected))


def test_stopping_at_the_first_free_place_picks_what_min_picks(monkeypatch):
    import random

    import labs
    from labs.kit import label_layout

    rng = random.Random(4)
    clouds = [[(rng.uniform(-1, 1), rng.uniform(-1, 1)) for _ in range(rng.randint(1, 15))] for _ in range(40)]
    words = ["re", "regina", "uomo", "donna", "x", "un nome lungo"]
    texts = [[rng.choice(words) for _ in cloud] for cloud in clouds]
    asks = [
        [
            (
                rng.choice(words),
                12,
                [(rng.uniform(0, 300), rng.uniform(0, 200), rng.choice(("start", "middle", "end"))) for _ in range(8)],
            )
            for _ in range(10)
        ]
        for _ in range(40)
    ]
    views = [str(lab.view(lab.compute(lab.parse({})))) for lab in labs.all_labs()]

    def results():
        return (
            [label_sides(c, t, (-1, 1), (-1, 1), 400) for c, t in zip(clouds, texts)],
            [label_layout.place_labels(a, bounds=(0, 0, 300, 200)) for a in asks],
        )

    fast = results()
    monkeypatch.setattr(label_layout, "cheapest", lambda candidates, cost: min(candidates, key=cost))
    monkeypatch.setattr(label_layout, "place_labels", place_labels_by_min)
    assert results() == fast
    assert [str(lab.view(lab.compute(lab.parse({})))) for lab in labs.all_labs()] == views


@given(
    st.lists(st.tuples(*[st.floats(-50, 50)] * 4), max_size=12),
    st.tuples(*[st.floats(-50, 50)] * 4),
    st.one_of(st.none(), st.integers(0, 12)),
)
def test_covered_adds_up_the_overlaps(boxes, box, skip):
    boxes = [(min(a, c), min(b, d), max(a, c), max(b, d)) for a, b, c, d in boxes]
    box = (min(box[0], box[2]), min(box[1], box[3]), max(box[0], box[2]), max(box[1], box[3]))
    expected = sum(overlap(box, other) for k, other in enumerate(boxes) if k != skip)
    assert covered(box, boxes, skip) == expected
