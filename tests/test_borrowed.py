"""The rules kernel's ``borrowed``: a view of an array's memory without a reference count."""

from __future__ import annotations

import numba
import numpy as np
import numpy.typing as npt

from ordonnance._simulator_kernel import borrowed


@numba.njit
def _write_through(array: npt.NDArray[np.int64], value: int) -> tuple[int, int]:
    view = borrowed(array)
    view[-1, 0] = value
    return view.shape[0], view.shape[1]


@numba.njit
def _column(array: npt.NDArray[np.int64]) -> float:
    view = borrowed(array[:, 1])  # not C-contiguous: the array itself
    view[0] = 9
    return float(view.sum())


def test_a_borrowed_array_has_the_shape_dtype_and_memory_of_the_array() -> None:
    array = np.arange(12, dtype=np.int64).reshape(3, 4)
    assert _write_through(array, -5) == (3, 4)
    assert array[2, 0] == -5 and array[2, 1] == 9 and array.dtype == np.int64


def test_a_strided_array_is_borrowed_as_itself() -> None:
    array = np.arange(12, dtype=np.int64).reshape(3, 4)
    assert _column(array) == 9 + 5 + 9
    assert array[0, 1] == 9 and array[1, 1] == 5
