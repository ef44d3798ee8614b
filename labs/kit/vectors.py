"""A vector as a one-column or one-row table: matrix() with the positions named, highlighted or muted."""

from .matrices import matrix
from .matrices import shape_label


def vector(
    values,
    label=None,
    labels=None,
    highlight=(),
    muted=(),
    column=True,
    digits=2,
    trim=True,
    clickable=None,
    heat=False,
    shape=True,
    caption=None,
    part=None,
    emphasize=False,
    description=None,
):
    """A vector as a one-column (column=True) or one-row table, shape «[n]».

    labels name the positions; highlight and muted are positions;
    emphasize tints the whole vector (a result, say) without ringing each
    cell; clickable(k) gives the data-set string (or (data-set,
    aria-label)) of position k. description as for matrix(): by default
    how many values, the largest and the smallest and where."""
    values = list(values)
    n = len(values)
    positions = set(highlight)
    faded = set(muted)
    click = None
    if clickable is not None:

        def click(i, j):
            k = i if column else j
            target = clickable(k)
            if not target or isinstance(target, tuple):
                return target
            return target, f"Seleziona {labels[k] if labels and k < len(labels) else f'la posizione {k}'}"

    common = {
        "label": label,
        "digits": digits,
        "trim": trim,
        "clickable": click,
        "heat": heat,
        "shape": shape_label(n) if shape is True else shape,
        "caption": caption,
        "part": part,
        "description": description,
    }
    if column:
        return matrix(
            [[v] for v in values],
            row_labels=labels,
            highlight_cells=[(k, 0) for k in positions],
            muted_rows=faded,
            highlight_cols=[0] if emphasize else (),
            **common,
        )
    return matrix(
        [values],
        col_labels=labels,
        highlight_cells=[(0, k) for k in positions],
        muted_cols=faded,
        highlight_rows=[0] if emphasize else (),
        **common,
    )


__all__ = ["vector"]
