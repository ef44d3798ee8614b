"""The kit's Cartesian plane: data → drawing mapping, escaping, drag handles."""

import re
import xml.etree.ElementTree as ET

import pytest

from labs.kit import Arc, Arrow, Circle, Guide, Label, Point, Shape, plane, presets, vector_text

SVG = "{http://www.w3.org/2000/svg}"


def parse(html):
    """The plane's <svg>, out of the frame that scrolls it on a narrow screen."""
    frame = ET.fromstring(str(html))
    assert frame.tag == "div" and "lab-fig" in frame.get("class")
    (root,) = [e for e in frame if "lab-svg" in e.get("class", "")]
    return root


def view_box(root):
    return [float(v) for v in root.get("viewBox").split()]


def data_to_drawing(root, x, y):
    """What the runtime does in reverse: data-plane and viewBox give the mapping."""
    xmin, xmax, ymin, ymax = (float(v) for v in root.get("data-plane").split())
    bx, by, w, h = view_box(root)
    return bx + (x - xmin) / (xmax - xmin) * w, by + (ymax - y) / (ymax - ymin) * h


def point_centres(root):
    dots = [c for c in root.iter(f"{SVG}circle") if "lab-plane-point" in c.get("class", "")]
    return [(float(c.get("cx")), float(c.get("cy"))) for c in dots]


@pytest.mark.parametrize("x_range, y_range", [((-3, 3), (-2, 2)), ((-0.25, 1.25), (-0.2, 1.2)), ((1, 5), (-7, -1))])
def test_corners_of_the_data_land_on_the_corners_of_the_view_box(x_range, y_range):
    (xmin, xmax), (ymin, ymax) = x_range, y_range
    corners = [(xmin, ymax), (xmax, ymax), (xmin, ymin), (xmax, ymin), ((xmin + xmax) / 2, (ymin + ymax) / 2)]
    root = parse(plane([Point(c) for c in corners], x_range, y_range, label="piano"))
    bx, by, w, h = view_box(root)
    assert (bx, by) == (0, 0)
    assert root.get("data-plane") == f"{xmin:g} {xmax:g} {ymin:g} {ymax:g}"
    expected = [(0, 0), (w, 0), (0, h), (w, h), (w / 2, h / 2)]
    for drawn, want in zip(point_centres(root), expected, strict=True):
        assert drawn == pytest.approx(want, abs=0.01)
    for (x, y), drawn in zip(corners, point_centres(root)):
        assert data_to_drawing(root, x, y) == pytest.approx(drawn, abs=0.01)


def test_both_axes_have_the_same_scale_by_default():
    root = parse(plane([], (-4, 4), (-1, 3), label="piano", width=400))
    _, _, w, h = view_box(root)
    assert (w, h) == (400, 200)
    root = parse(plane([], (-4, 4), (-1, 3), label="piano", width=400, height=300))
    assert view_box(root)[2:] == [400, 300]


def test_arrow_goes_from_start_to_its_tip_and_points_there():
    root = parse(plane([Arrow((2, 1), start=(-1, 0))], (-3, 3), (-3, 3), label="piano", width=600))
    shaft = next(e for e in root.iter(f"{SVG}line") if "lab-plane-shaft" in e.get("class", ""))
    assert (float(shaft.get("x1")), float(shaft.get("y1"))) == pytest.approx((200, 300))
    head = next(e for e in root.iter(f"{SVG}polygon"))
    tip = tuple(float(v) for v in head.get("points").split()[0].split(","))
    assert tip == pytest.approx((500, 200))


def test_zero_length_arrow_draws_no_head_but_keeps_its_handle():
    html = str(plane([Arrow((0, 0), label="a", drag=("ax", "ay"))], (-2, 2), (-2, 2), label="piano"))
    assert "<polygon" not in html
    assert 'data-drag="ax ay"' in html


def test_labels_and_title_are_escaped():
    evil = "<script>alert(1)</script>"
    html = str(
        plane(
            [
                Point((0, 0), label=evil),
                Arrow((1, 1), label=evil),
                Guide((0, 0), (1, 0), label=evil),
                Label((1, 1), evil),
                Arc((0, 0), (1, 0), (0, 1), label=evil),
            ],
            (-2, 2),
            (-2, 2),
            label=evil,
            axis_names=(evil, evil),
        )
    )
    assert "<script" not in html
    # 8 drawn, and the two named items twice more: in the <desc> and in the paragraph of the description
    assert html.count("&lt;script&gt;") == 12
    parse(html)  # still well-formed


def test_drag_adds_a_handle_on_the_point_only_when_asked():
    html = str(
        plane(
            [Point((1, 1), label="x", drag=("x1", "x2")), Point((-1, 0), label="fermo")],
            (-2, 2),
            (-2, 2),
            label="piano",
        )
    )
    root = parse(html)
    handles = [c for c in root.iter(f"{SVG}circle") if c.get("data-drag")]
    assert [h.get("data-drag") for h in handles] == ["x1 x2"]
    assert (float(handles[0].get("cx")), float(handles[0].get("cy"))) == pytest.approx(data_to_drawing(root, 1, 1))
    assert float(handles[0].get("r")) > 10  # easy to grab with a finger
    # handles come last, above everything they could hide under
    assert html.rindex("lab-plane-handle") > html.rindex("lab-plane-point")


def test_grid_ticks_and_axis_names():
    html = str(
        plane([], (-0.25, 1.25), (-0.25, 1.25), label="parole", grid=0.1, ticks=0.2, axis_names=("regale", "femminile"))
    )
    ticks = re.findall(r'class="lab-plane-tick"[^>]*>([^<]+)<', html)
    assert {"0,2", "0,4", "1"} <= set(ticks) and "0,1" not in ticks
    assert "regale" in html and "femminile" in html
    assert html.count('class="lab-plane-grid"') == 2 * 15  # −0,2 … 1,2 on each axis


def test_shapes_circles_and_styles():
    html = str(
        plane(
            [Shape(((0, 0), (1, 0), (0, 1)), style="result"), Shape(((0, 0), (1, 1)), closed=False), Circle((0, 0), 1)],
            (-2, 2),
            (-2, 2),
            label="piano",
            width=400,
        )
    )
    triangle = '<path d="M200.00,200.00 L300.00,200.00 L200.00,100.00 Z" class="lab-plane-shape is-result is-filled"'
    assert triangle in html
    assert 'r="100"' in html
    with pytest.raises(ValueError):
        plane([Point((0, 0), style="rosso")], (-1, 1), (-1, 1), label="piano")
    with pytest.raises(ValueError):
        plane([], (1, 1), (-1, 1), label="piano")


def test_far_items_are_clipped_and_labels_stay_inside():
    root = parse(plane([Point((50, 50), label="lontano")], (-2, 2), (-2, 2), label="piano", width=400))
    _, _, w, h = view_box(root)
    label = next(t for t in root.iter(f"{SVG}text") if t.text == "lontano")
    assert 0 <= float(label.get("x")) <= w and 0 <= float(label.get("y")) <= h
    inner = root.find(f"{SVG}svg")
    assert inner is not None and float(inner.get("width")) == w  # the nested svg clips to the data rectangle


def test_presets_and_vector_text():
    html = str(presets("Esempi", [("Rotazione <30°>", {"a11": 0.87, "a12": -0.5, "nome": "re"})]))
    assert 'data-set="a11=0.87;a12=-0.5;nome=re"' in html
    assert "&lt;30°&gt;" in html and 'type="button"' in html
    assert vector_text([2, 1.5]) == "[2 ; 1,5]"
    assert vector_text([-1.0, 0.25]) == "[−1 ; 0,25]"


def test_a_handle_for_shift_sliders_maps_the_pointer_to_the_shift():
    """drag_origin: the sliders hold position − origin, so the handle's own plane is moved by the origin."""
    html = str(
        plane(
            [
                Point((0.7, 0.2), label="re", drag=("a_dx", "a_dy"), drag_origin=(0.9, 0.1)),
                Point((1, 1), label="x", drag=("x1", "x2")),
            ],
            (-0.3, 1.3),
            (-0.3, 1.3),
            label="piano",
        )
    )
    root = parse(html)
    inner = [e for e in root.iter(f"{SVG}svg") if e.get("data-plane") and e is not root]
    assert len(inner) == 1  # only the shifted handle needs its own plane
    (target,) = [c for c in inner[0].iter(f"{SVG}circle") if c.get("data-drag")]
    assert target.get("data-drag") == "a_dx a_dy"
    cx, cy = float(target.get("cx")), float(target.get("cy"))
    assert (cx, cy) == pytest.approx(data_to_drawing(root, 0.7, 0.2))  # drawn where the point is
    # the runtime's inverse map on the nested plane gives the shift, not the position
    xmin, xmax, ymin, ymax = (float(v) for v in inner[0].get("data-plane").split())
    bx, by, w, h = view_box(inner[0])
    assert xmin + (cx - bx) / w * (xmax - xmin) == pytest.approx(-0.2)
    assert ymax - (cy - by) / h * (ymax - ymin) == pytest.approx(0.1)
    assert inner[0].get("overflow") == "visible"


def test_grids_are_remembered_and_whatever_the_drawing_tells_apart_the_memory_does_too():
    from labs.kit.memory import forget_all

    items = [Arrow((1, 1), label="a"), Point((-1, 2), "b")]

    def drawn(**kw):
        return plane(items, **{"x_range": (-3, 3), "y_range": (-3, 3), "label": "P", **kw})

    variants = [
        {},
        {"y_range": (-3, 4)},
        {"x_range": (-4, 3)},
        {"grid": 0.5},
        {"ticks": 2.0},
        {"width": 300},
        {"height": 200},
        {"height": 200, "y_range": (-3, 4)},
        {"axis_names": ("regale", "")},
        {"axis_names": ("", "regale")},
    ]
    fresh = [(forget_all(), drawn(**kw))[1] for kw in variants]  # each from nothing
    assert len(set(fresh)) == len(variants)
    assert [drawn(**kw) for kw in variants] == fresh
    forget_all()
    assert [drawn(**kw) for kw in reversed(variants)] == fresh[::-1]
