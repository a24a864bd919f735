"""The same values as edlib and rapidfuzz, where the test setup installed them (pinned in
scripts/python-test)."""

import numpy as np
import pytest

import mpi_lcs
from conftest import apply_cigar, mutate, random_bytes

edlib = pytest.importorskip("edlib")
rapidfuzz = pytest.importorskip("rapidfuzz")
from rapidfuzz import process  # noqa: E402
from rapidfuzz.distance import Levenshtein, LCSseq  # noqa: E402


def test_align_agrees_with_edlib(rng):
    for _ in range(40):
        a = random_bytes(rng, rng.randrange(1, 2000))
        b = mutate(rng, a, rng.choice([0.001, 0.01, 0.1]))
        want = edlib.align(a, b, task="path")
        got = mpi_lcs.align(a, b)
        assert got.distance == want["editDistance"]
        # Equal-cost alignments may differ; each is checked to align a to b at that cost.
        assert apply_cigar(got.cigar, a, b) == got.distance


def test_distances_agree_with_rapidfuzz(rng):
    words = ["café", "cafe", "naïve", "日本語", "", "x" * 70, "kitten", "sitting"]
    for a in words:
        for b in words:
            assert mpi_lcs.distance(a, b) == Levenshtein.distance(a, b)
            assert mpi_lcs.lcs_length(a, b) == LCSseq.similarity(a, b)
            for cut in (0, 1, 3):
                assert mpi_lcs.distance(a, b, score_cutoff=cut) == \
                    Levenshtein.distance(a, b, score_cutoff=cut)


@pytest.mark.parametrize("cutoff", [None, 5])
def test_cdist_agrees_with_rapidfuzz(rng, cutoff):
    queries = [random_bytes(rng, rng.randrange(0, 160)) for _ in range(60)]
    choices = [mutate(rng, q, 0.05) for q in queries[:40]]
    want = process.cdist(queries, choices, scorer=Levenshtein.distance, score_cutoff=cutoff)
    got = mpi_lcs.cdist(queries, choices, score_cutoff=cutoff, workers=2)
    assert got.dtype == want.dtype
    np.testing.assert_array_equal(got, want)
    want = process.cdist(queries, queries, scorer=LCSseq.similarity)
    np.testing.assert_array_equal(mpi_lcs.cdist(queries, problem="lcs"), want)


def test_search_ends_include_edlibs(rng):
    text = bytearray(random_bytes(rng, 100_000))
    pattern = random_bytes(rng, 32)
    for _ in range(5):
        at = rng.randrange(len(text))
        text[at:at] = mutate(rng, pattern, 0.05)
    text = bytes(text)
    found = edlib.align(pattern, text, mode="HW", task="locations")
    ours = {(m.end, m.distance) for m in mpi_lcs.search(pattern, text, found["editDistance"])}
    for (_, end) in found["locations"]:
        assert (end + 1, found["editDistance"]) in ours
