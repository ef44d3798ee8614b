"""What a plane draws, in data coordinates: arrows, points, dashed guides, shapes, circles, angle marks and
labels, each with a style among STYLES (a CSS class of «kit: plane» in labs.css)."""

from dataclasses import KW_ONLY
from dataclasses import dataclass

STYLES = ("a", "b", "c", "d", "result", "muted")


@dataclass(frozen=True)
class Arrow:
    """An arrow from start to end (the origin by default). drag=(x, y) slider
    names makes its tip draggable."""

    end: tuple
    _: KW_ONLY
    start: tuple = (0.0, 0.0)
    label: str = ""
    style: str = "a"
    drag: tuple | None = None
    label_at: str = "auto"
    dashed: bool = False
    drag_origin: tuple | None = None


@dataclass(frozen=True)
class Point:
    """A dot with its label; hollow for a point that is only a place."""

    at: tuple
    label: str = ""
    _: KW_ONLY
    style: str = "a"
    drag: tuple | None = None
    label_at: str = "ne"
    hollow: bool = False
    drag_origin: tuple | None = None


@dataclass(frozen=True)
class Guide:
    """A dashed segment: a projection, a copy of an arrow, a reading line."""

    start: tuple
    end: tuple
    _: KW_ONLY
    label: str = ""
    style: str = "muted"


@dataclass(frozen=True)
class Shape:
    """A polygon (closed) or a polyline, e.g. a shape before and after a
    matrix; thin for the lines of a transformed grid."""

    points: tuple
    _: KW_ONLY
    style: str = "muted"
    closed: bool = True
    filled: bool = True
    thin: bool = False


@dataclass(frozen=True)
class Circle:
    """A circle of the plane (dashed by default), e.g. the unit circle; radius in data units."""

    center: tuple
    radius: float
    _: KW_ONLY
    style: str = "muted"
    dashed: bool = True


@dataclass(frozen=True)
class Arc:
    """The mark of the angle at center from direction u to direction v (the
    smaller of the two angles), radius in drawing units."""

    center: tuple
    u: tuple
    v: tuple
    _: KW_ONLY
    label: str = ""
    style: str = "d"
    radius: float = 26.0


@dataclass(frozen=True)
class Label:
    """Text at a point of the plane, on its own (label_at: c, n, ne, e, … as for Point)."""

    at: tuple
    text: str
    _: KW_ONLY
    style: str = "muted"
    label_at: str = "c"


__all__ = ["Arc", "Arrow", "Circle", "Guide", "Label", "Point", "STYLES", "Shape"]
