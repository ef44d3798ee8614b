"""Tensors as nested lists: shape, size, and picking elements and slices.

A tensor of shape [B × L × d] is a list of B matrices, each a list of L
rows of d numbers. An index fixes some axes (an int) and keeps others
whole (None, written «:» in code): every fixed axis disappears from the
result's shape.
"""

import math


def tensor_shape(t):
    """Le lunghezze lungo ogni asse, controllando che tutti i rami siano uguali.

    A number has shape (); a ragged tensor raises ValueError."""
    if not isinstance(t, list):
        return ()
    if not t:
        return (0,)
    shapes = {tensor_shape(x) for x in t}
    if len(shapes) != 1:
        raise ValueError("tensore irregolare: le sotto-liste hanno forme diverse")
    return (len(t), *shapes.pop())


def size(shape):
    """Quanti numeri tiene un tensore di questa forma: il prodotto delle lunghezze."""
    return math.prod(shape)


def filled(shape, value_at):
    """Un tensore di questa forma, con value_at((i, j, …)) nella posizione (i, j, …)."""

    def build(prefix, rest):
        if not rest:
            return value_at(prefix)
        return [build((*prefix, i), rest[1:]) for i in range(rest[0])]

    return build((), tuple(shape))


def check_index(shape, index):
    """Controlla l'indice: al più una voce per asse, ognuna None o un intero dentro i limiti."""
    if len(index) > len(shape):
        raise IndexError(f"{len(index)} indici per un tensore con {len(shape)} assi")
    for axis, (i, n) in enumerate(zip(index, shape)):
        if i is not None and not 0 <= i < n:
            raise IndexError(f"indice {i} fuori da 0…{n - 1} sull'asse {axis}")


def take(t, index):
    """t[index]: un intero fissa un asse, None lo tiene intero.

    t[index]: ints fix an axis, None keeps it whole; missing trailing
    entries count as None. X[1] is a matrix, X[1, 2] a vector, X[1, 2, 0]
    a number, X[:, :, 0] the matrix of the first numbers.
    """
    check_index(tensor_shape(t), index)
    if not index:
        return t
    first, rest = index[0], tuple(index[1:])
    if first is None:
        return [take(x, rest) for x in t]
    return take(t[first], rest)


def result_shape(shape, index):
    """La forma di t[index]: gli assi lasciati interi."""
    padded = tuple(index) + (None,) * (len(shape) - len(index))
    return tuple(n for n, i in zip(shape, padded) if i is None)


def selected(shape, index):
    """Tutti gli indici completi (i, j, …) che t[index] prende, in ordine di lettura."""
    check_index(shape, index)
    padded = tuple(index) + (None,) * (len(shape) - len(index))
    choices = [range(n) if i is None else (i,) for n, i in zip(shape, padded)]
    out = [()]
    for axis in choices:
        out = [(*prefix, i) for prefix in out for i in axis]
    return out
