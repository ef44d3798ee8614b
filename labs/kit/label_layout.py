"""Where to write labels so that they cover neither each other nor what is
already drawn (points, tick numbers): for each label, in turn, the first of
its candidate places whose box covers nothing, or else the one that covers
least. Greedy and approximate (text widths are estimated), but enough for
the figures of the kit: plane() and the charts pass every label through
place_labels(), and label_sides() picks compass sides for a cloud of a dozen
labelled points, e.g. embeddings projected to 2D."""

# A label's offset from the point it names, in drawing units, by compass side: (dx, dy, text-anchor)
OFFSETS = {
    "n": (0, -13, "middle"),
    "ne": (7, -11, "start"),
    "e": (9, 0, "start"),
    "se": (7, 12, "start"),
    "s": (0, 14, "middle"),
    "sw": (-7, 12, "end"),
    "w": (-9, 0, "end"),
    "nw": (-7, -11, "end"),
    "c": (0, 0, "middle"),
}
EM = 0.62  # width of a character in em, roughly (sans-serif; digits and small letters, a little to spare)


def text_width(text, size):
    return EM * size * len(str(text))


def text_box(x, y, text, size, anchor="middle"):
    """The box (x0, y0, x1, y1) of text of size user units written at (x, y),
    vertically centred (the kit's text() uses dominant-baseline middle)."""
    w = text_width(text, size)
    left = {"start": x, "middle": x - w / 2, "end": x - w}[anchor]
    return left, y - 0.6 * size, left + w, y + 0.6 * size


def cheapest(candidates, cost):
    """min(candidates, key=cost), the first of equal costs, but it stops at the
    first candidate that costs 0: a cost here is an area, never below 0, so
    nothing after it can be cheaper (and most labels fit where first asked)."""
    best, lowest = None, None
    for candidate in candidates:
        value = cost(candidate)
        if value == 0:
            return candidate
        if lowest is None or value < lowest:
            best, lowest = candidate, value
    return best


def place_labels(requests, taken=(), bounds=None):
    """requests: (text, size, candidates), candidates being (x, y, anchor)
    places in order of preference (any iterable: a generator is read only as
    far as the first free place). Returns one chosen place per request; the
    boxes of the chosen places join `taken` for the next requests. A place
    that leaves bounds (x0, y0, x1, y1) counts as covering what it leaves.

    The cost of a place is what text_box, overlap and covered give, written
    out here (a dense cloud asks it hundreds of times per drawing): the same
    numbers, so the same places."""
    taken, chosen = list(taken), []
    for text, size, candidates in requests:
        w, h = text_width(text, size), 0.6 * size
        best, lowest = None, None
        for place in candidates:
            x, y, anchor = place[0], place[1], place[2]
            x0 = x if anchor == "start" else x - w / 2 if anchor == "middle" else x - w
            x1, y0, y1 = x0 + w, y - h, y + h
            # covered(box, taken), with min and max as comparisons (a third of the time in Pyodide)
            cost = sum(
                [
                    ((x1 if x1 <= a1 else a1) - (x0 if x0 >= a0 else a0))
                    * ((y1 if y1 <= b1 else b1) - (y0 if y0 >= b0 else b0))
                    for a0, b0, a1, b1 in taken
                    if a0 < x1 and x0 < a1 and b0 < y1 and y0 < b1
                ]
            )
            if bounds:
                cost += (x1 - x0) * (y1 - y0) - overlap((x0, y0, x1, y1), bounds)
            if cost == 0:  # an area, never below 0: nothing after it can be cheaper (see cheapest)
                best = place
                break
            if lowest is None or cost < lowest:  # the first of equal costs: the preferred place when it is free
                best, lowest = place, cost
        chosen.append(best)
        taken.append(text_box(best[0], best[1], text, size, best[2]))
    return chosen


SIDES = ("ne", "nw", "se", "sw", "e", "w", "n", "s")


def overlap(a, b):
    """Area shared by two boxes (x0, y0, x1, y1)."""
    return max(0.0, min(a[2], b[2]) - max(a[0], b[0])) * max(0.0, min(a[3], b[3]) - max(a[1], b[1]))


def covered(box, others, skip=None):
    """L'area che box condivide con gli altri riquadri, sommata.

    The same number as sum(overlap(box, o) for o in others) (without
    others[skip]), but the boxes that miss it are passed over before any
    product: a figure asks this thousands of times per drawing."""
    x0, y0, x1, y1 = box
    return sum(
        [
            (min(x1, a1) - max(x0, a0)) * (min(y1, b1) - max(y0, b0))
            for k, (a0, b0, a1, b1) in enumerate(others)
            if a0 < x1 and x0 < a1 and b0 < y1 and y0 < b1 and k != skip
        ]
    )


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
            return covered(box, placed) + covered(box, dots, skip=i) + (area - inside)

        best = cheapest(SIDES, cost)  # the first of equal costs: ne when nothing is in the way
        sides.append(best)
        placed.append(label_box(x, y, text, best, char, line))
    return sides


__all__ = ["label_sides", "place_labels", "text_box", "text_width"]
