"""What the functions take (bytes-like, NumPy, str by code point) and what they refuse."""

import array

import numpy as np
import pytest

import mpi_lcs


def test_every_bytes_like_kind_is_the_same_sequence():
    a, b = b"GATTACA", b"GCATGCT"
    want = mpi_lcs.distance(a, b)
    for kind in (bytes, bytearray, memoryview, lambda s: np.frombuffer(s, dtype=np.uint8),
                 lambda s: array.array("B", s)):
        assert mpi_lcs.distance(kind(a), kind(b)) == want
        assert mpi_lcs.align(kind(a), kind(b)).cigar == mpi_lcs.align(a, b).cigar
    strided = np.frombuffer(b"GxAxTxT", dtype=np.uint8)[::2]
    assert mpi_lcs.distance(strided, b"GATT") == 0


def test_strings_compare_by_code_point():
    assert mpi_lcs.distance("café", "cafe") == 1
    assert mpi_lcs.distance("日本語", "日本") == 1
    assert mpi_lcs.align("naïve", "naive").cigar == "2=1X2="
    got = mpi_lcs.align("ünïcödé", "unicode", problem="lcs")
    assert (got.lcs, got.lcs_length) == ("ncd", 3)
    assert str(mpi_lcs.align("日本", "日")).splitlines()[0] == "日本"
    emoji = "".join(chr(0x1F600 + i) for i in range(50))
    assert mpi_lcs.distance(emoji, emoji[::-1]) == 50 - (50 % 2)


def test_more_distinct_code_points_than_a_byte_is_a_value_error():
    wide = "".join(chr(0x4E00 + i) for i in range(300))
    with pytest.raises(ValueError, match="more than 256 distinct code points"):
        mpi_lcs.distance(wide, "x")
    assert mpi_lcs.distance(wide[:255], wide[1:256]) == 2


@pytest.mark.parametrize("call", [
    lambda: mpi_lcs.distance("abc", b"abc"),
    lambda: mpi_lcs.align(b"abc", "abc"),
    lambda: mpi_lcs.cdist(["a", b"b"]),
    lambda: mpi_lcs.search(["A"], b"ACGT", 1),
])
def test_mixed_str_and_bytes_is_a_type_error(call):
    with pytest.raises(TypeError, match="str"):
        call()


def test_wrong_types_name_the_argument():
    with pytest.raises(TypeError, match="^b is"):
        mpi_lcs.distance(b"a", 5)
    with pytest.raises(TypeError, match="queries"):
        mpi_lcs.cdist(b"abc")
    with pytest.raises(TypeError, match=r"choices\[1\]"):
        mpi_lcs.cdist([b"a"], [b"b", 3.0])
    with pytest.raises(TypeError, match="dtype int64"):
        mpi_lcs.distance(np.arange(4), b"a")
    with pytest.raises(TypeError, match="2 dimensions"):
        mpi_lcs.distance(np.zeros((2, 2), dtype=np.uint8), b"a")


def test_bad_values_are_value_errors():
    with pytest.raises(ValueError, match="k must be at least 0"):
        mpi_lcs.search([b"A"], b"ACGT", -1)
    with pytest.raises(ValueError, match="score_cutoff"):
        mpi_lcs.distance(b"a", b"b", score_cutoff=-2)
    with pytest.raises(ValueError, match="workers"):
        mpi_lcs.cdist([b"a"], workers=0)
    with pytest.raises(ValueError, match="problem"):
        mpi_lcs.align(b"a", b"b", problem="hamming")
    with pytest.raises(ValueError, match="engine"):
        mpi_lcs.align(b"a", b"b", engine="diagonal")
    with pytest.raises(ValueError, match="task"):
        mpi_lcs.align(b"a", b"b", task="locations")
    with pytest.raises(ValueError, match=r"patterns\[1\] is empty"):
        mpi_lcs.search([b"A", b""], b"ACGT", 1)


def test_a_matrix_that_cannot_fit_is_a_memory_error():
    empty = [b""] * 400_000
    with pytest.raises(MemoryError, match="the matrix"):
        mpi_lcs.cdist(empty, empty)


def test_help_shows_the_docstrings():
    assert "query" in mpi_lcs.align.__doc__
    assert "score_cutoff" in mpi_lcs.distance.__doc__
    assert mpi_lcs.align.__text_signature__.startswith("(a, b, problem=")
