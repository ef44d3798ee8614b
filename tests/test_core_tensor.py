"""core.tensor and core.rank against numpy."""

import itertools

import numpy as np
import pytest

from core.rank import matrix_rank
from core.tensor import filled, result_shape, selected, size, take, tensor_shape


def numpy_index(index):
    return tuple(slice(None) if i is None else i for i in index)


@pytest.mark.parametrize("shape", [(2, 3, 4), (1, 1, 1), (4, 5, 6), (3,), (2, 2)])
def test_shape_size_take_and_selection_match_numpy(shape):
    rng = np.random.default_rng(len(shape))
    x = rng.normal(size=shape)
    t = filled(shape, lambda idx: float(x[idx]))
    np.testing.assert_allclose(np.array(t), x, atol=1e-12)
    assert tensor_shape(t) == x.shape and size(shape) == x.size
    for index in itertools.product(*[[None, *range(n)] for n in shape]):
        for cut in range(len(index) + 1):
            idx = index[:cut]
            got = take(t, idx)
            want = x[numpy_index(idx)]
            np.testing.assert_allclose(np.array(got), want, atol=1e-12)
            assert result_shape(shape, idx) == np.shape(want)
            picked = selected(shape, idx)
            mask = np.zeros(shape, bool)
            mask[numpy_index(idx)] = True
            assert sorted(picked) == sorted(map(tuple, np.argwhere(mask)))


def test_the_guides_example_has_24_numbers_and_x120():
    t = filled((2, 3, 4), lambda idx: 100 * idx[0] + 10 * idx[1] + idx[2])
    assert size(tensor_shape(t)) == 24
    assert take(t, (1, 2, 0)) == 120


def test_bad_indices_and_ragged_tensors_are_refused():
    t = filled((2, 3), lambda idx: 0.0)
    with pytest.raises(IndexError):
        take(t, (2,))
    with pytest.raises(IndexError):
        take(t, (0, 0, 0))
    with pytest.raises(ValueError):
        tensor_shape([[1, 2], [3]])


@pytest.mark.parametrize("seed", range(20))
def test_rank_matches_numpy(seed):
    rng = np.random.default_rng(seed)
    n, m = rng.integers(1, 7, size=2)
    r = int(rng.integers(0, min(n, m) + 1))
    a = rng.normal(size=(n, r)) @ rng.normal(size=(r, m)) * 10.0 ** rng.integers(-3, 4)
    assert matrix_rank(a.tolist()) == np.linalg.matrix_rank(a) == r


def test_rank_of_special_matrices():
    assert matrix_rank([[1, 0, 2], [2, 0, 4], [3, 0, 6]]) == 1
    assert matrix_rank([[0, 0], [0, 0]]) == 0
    assert matrix_rank([[1, 2], [3, 4]]) == 2
    assert matrix_rank([]) == 0
