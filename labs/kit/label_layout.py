"""Where to write the labels of many points on a plane so that they cover
neither each other nor the points: for each point, in turn, the compass side
(a Point's label_at) whose label box overlaps least with what is already
there. Greedy and approximate (text widths are estimated), but enough for a
cloud of a dozen labelled points, e.g. embeddings projected to 2D."""

from .plane import OFFSETS

SIDES = ("ne", "nw", "se", "sw", "e", "w", "n", "s")


def overlap(a, b):
    """Area shared by two boxes (x0, y0, x1, y1)."""
    return max(0.0, min(a[2], b[2]) - max(a[0], b[0])) * max(0.0, min(a[3], b[3]) - max(a[1], b[1]))


def label_box(x, y, text, side, char, line):
    dx, dy, anchor = OFFSETS[side]
    w = char * len(text)
    left = {"start": x + dx, "middle": x + dx - w / 2, "end": x + dx - w}[anchor]
    return left, y + dy - line / 2, left + w, y + dy + line / 2


def label_sides(points, texts, x_range, y_range, width, height=None, char=7.6, line=14.0, dot=6.0):
    """One side per point, for plane(…, width, height) with the same ranges.

    points are (x, y) in data coordinates; texts their labels. A label that
    would leave the drawing counts as badly as one that covers a point."""
    (xmin, xmax), (ymin, ymax) = x_range, y_range
    height = height or width * (ymax - ymin) / (xmax - xmin)
    pixels = [((x - xmin) / (xmax - xmin) * width, (ymax - y) / (ymax - ymin) * height) for x, y in points]
    dots = [(x - dot, y - dot, x + dot, y + dot) for x, y in pixels]
    placed, sides = [], []
    for i, ((x, y), text) in enumerate(zip(pixels, texts)):
        def cost(side):
            box = label_box(x, y, text, side, char, line)
            inside = overlap(box, (0.0, 0.0, width, height))
            area = (box[2] - box[0]) * (box[3] - box[1])
            return (sum(overlap(box, other) for other in placed)
                    + sum(overlap(box, d) for j, d in enumerate(dots) if j != i) + (area - inside))
        best = min(SIDES, key=cost)  # min keeps the first of equal costs: ne when nothing is in the way
        sides.append(best)
        placed.append(label_box(x, y, text, best, char, line))
    return sides


__all__ = ["label_sides"]
