"""Drawings remembered: a kit figure is a pure function of what it shows.

A view is drawn again at every change of a control, and most of what it
shows did not move: the same weights, the same axes with the same ticks.
A Memory keeps the last drawings of one kind by a key made of everything
they depend on, so those are not written again.
"""


class Memory:
    """The last `kept` results of a pure function, by key (the last used stay longest)."""

    every = []  # every Memory made, for forget_all()

    def __init__(self, kept):
        self.kept = kept
        self.items = {}
        Memory.every.append(self)

    def get(self, key, make):
        """make()'s result for key: the one remembered if key was seen lately.
        A key of None, or one that cannot be hashed, is made every time."""
        if key is None:
            return make()
        try:
            if key in self.items:
                value = self.items[key] = self.items.pop(key)
                return value
        except TypeError:  # something unhashable in the key
            return make()
        value = make()
        if len(self.items) >= self.kept:
            del self.items[next(iter(self.items))]
        self.items[key] = value
        return value

    def clear(self):
        self.items.clear()


def forget_all():
    """Forget every drawing remembered (a test compares views with drawings made from nothing)."""
    for memory in Memory.every:
        memory.clear()


CONTAINERS = (list, tuple)  # typed() goes into these; anything else, a tuple subclass too, is one value


def typed(value):
    """A hashable record of a value with its types, for a memory's key: lists and tuples item by item,
    anything else as (type, value), so 1 and 1.0, a text and Html, differ."""
    if type(value) in CONTAINERS:
        # the items inline, not a call each: a matrix's key reads every cell at every draw
        return tuple(typed(v) if type(v) in CONTAINERS else (type(v), v) for v in value)
    return (type(value), value)


def frozen(rows):
    """A matrix (a list of lists) as a tuple of tuples: a key a Memory or an lru_cache can hash."""
    return tuple(map(tuple, rows))
