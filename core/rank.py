"""The rank of a matrix: how many independent directions its outputs can take."""


def matrix_rank(m, tol=1e-9):
    """Il rango di una matrice, con l'eliminazione di Gauss e pivot parziale.

    Gaussian elimination with partial pivoting; a pivot counts when it is
    larger than tol times the largest entry (so the scale of m does not matter).
    """
    rows = [list(map(float, r)) for r in m]
    if not rows or not rows[0]:
        return 0
    largest = max(abs(x) for r in rows for x in r)
    if largest == 0:
        return 0
    n_rows, n_cols = len(rows), len(rows[0])
    rank = 0
    for col in range(n_cols):
        pivot = max(range(rank, n_rows), key=lambda r: abs(rows[r][col]), default=None)
        if pivot is None or abs(rows[pivot][col]) <= tol * largest:
            continue
        rows[rank], rows[pivot] = rows[pivot], rows[rank]
        for r in range(rank + 1, n_rows):
            f = rows[r][col] / rows[rank][col]
            rows[r] = [a - f * b for a, b in zip(rows[r], rows[rank])]
        rank += 1
        if rank == n_rows:
            break
    return rank
