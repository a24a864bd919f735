"""cdist against the plain DPs, the CLI's pairs command, and rapidfuzz's rules."""

import numpy as np
import pytest

import mpi_lcs
from conftest import EDGE_LENGTHS, lcs_len, levenshtein, mutate, random_bytes, run_cli


def plain(queries, choices, problem, cutoff):
    """The matrix by the plain DPs, with rapidfuzz's cutoff rule."""
    out = np.zeros((len(queries), len(choices)), dtype=np.int32)
    for i, q in enumerate(queries):
        for j, c in enumerate(choices):
            if problem == "edit":
                v = levenshtein(q, c)
                out[i, j] = v if cutoff is None or v <= cutoff else cutoff + 1
            else:
                v = lcs_len(q, c)
                out[i, j] = v if cutoff is None or v >= cutoff else 0
    return out


def sets(rng, count, lengths):
    base = random_bytes(rng, max(lengths) + 10)
    out = []
    for _ in range(count):
        n = rng.choice(lengths)
        s = base[:n] if rng.random() < 0.5 else random_bytes(rng, n)
        out.append(mutate(rng, s, 0.1)[:n] if s else s)
    return out


@pytest.mark.parametrize("problem", ["edit", "lcs"])
@pytest.mark.parametrize("cutoff", [None, 0, 3, 20])
@pytest.mark.parametrize("workers", [1, 2, -1])
def test_values_are_the_plain_dps(rng, problem, cutoff, workers):
    lengths = EDGE_LENGTHS + [rng.randrange(300) for _ in range(5)] + [700]
    queries = sets(rng, 14, lengths)
    choices = sets(rng, 11, lengths)
    got = mpi_lcs.cdist(queries, choices, problem=problem, score_cutoff=cutoff, workers=workers)
    assert got.dtype == np.uint32 and got.shape == (14, 11)
    np.testing.assert_array_equal(got, plain(queries, choices, problem, cutoff))


@pytest.mark.parametrize("problem", ["edit", "lcs"])
def test_one_set_against_itself_is_symmetric_with_its_own_diagonal(rng, problem):
    queries = sets(rng, 17, EDGE_LENGTHS + [40, 90])
    for cutoff in [None, 2, 30]:
        got = mpi_lcs.cdist(queries, problem=problem, score_cutoff=cutoff, workers=2)
        np.testing.assert_array_equal(got, plain(queries, queries, problem, cutoff))


def test_empty_sets_and_dtype():
    assert mpi_lcs.cdist([], [b"A"]).shape == (0, 1)
    assert mpi_lcs.cdist([b"A", b""], []).shape == (2, 0)
    got = mpi_lcs.cdist([b"AC", b""], [b"A"], dtype=np.uint8)
    assert got.dtype == np.uint8
    np.testing.assert_array_equal(got, [[1], [1]])


def test_strings_by_code_point():
    got = mpi_lcs.cdist(["café", "cafe", "naïve"], ["cafe", "naive"])
    np.testing.assert_array_equal(got, [[1, 4], [0, 3], [3, 1]])


def test_the_values_are_the_clis(cli, tmp_path, rng):
    queries = sets(rng, 25, [10, 64, 65, 150, 600])
    choices = sets(rng, 19, [1, 30, 64, 200])
    (tmp_path / "q.txt").write_bytes(b"".join(q + b"\n" for q in queries))
    (tmp_path / "c.txt").write_bytes(b"".join(c + b"\n" for c in choices))
    run_cli(cli, "pairs", tmp_path / "q.txt", tmp_path / "c.txt", "--out", tmp_path / "m.npy", "-q")
    want = np.load(tmp_path / "m.npy")
    np.testing.assert_array_equal(mpi_lcs.cdist(queries, choices), want)
