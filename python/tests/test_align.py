"""align, distance and lcs_length against the plain DPs, the crate's reference and the CLI."""

import json

import pytest

import mpi_lcs
from conftest import (EDGE_LENGTHS, apply_cigar, lcs_len, levenshtein, mutate, random_bytes,
                      run_cli)

ENGINES = ["auto", "wave", "bands"]


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("problem", ["edit", "lcs"])
def test_random_pairs_match_the_reference_and_the_plain_dp(rng, engine, problem):
    for _ in range(60):
        a = random_bytes(rng, rng.choice(EDGE_LENGTHS + [rng.randrange(300)]))
        b = mutate(rng, a, rng.choice([0.0, 0.05, 0.3])) if rng.random() < 0.7 else \
            random_bytes(rng, rng.randrange(300))
        got = mpi_lcs.align(a, b, problem=problem, engine=engine)
        value, cigar = mpi_lcs._reference.align(a, b, problem)
        assert got.cigar == cigar, (a, b)
        assert apply_cigar(got.cigar, a, b) == got.distance
        if problem == "edit":
            assert got.distance == value == levenshtein(a, b)
            assert got.lcs is None and got.lcs_length is None
        else:
            assert got.lcs_length == value == lcs_len(a, b) == len(got.lcs)
            assert got.distance == len(a) + len(b) - 2 * value
            it = iter(a)
            assert all(c in it for c in got.lcs), "the LCS is a subsequence of a"
            it = iter(b)
            assert all(c in it for c in got.lcs), "the LCS is a subsequence of b"
        assert got.engine in (("wave", "bands") if engine == "auto" else (engine,))


def test_empty_and_one_byte_sequences():
    for a, b in [(b"", b""), (b"", b"A"), (b"A", b""), (b"A", b"A"), (b"A", b"C"), (b"", b"ACGT")]:
        got = mpi_lcs.align(a, b)
        assert got.distance == levenshtein(a, b)
        assert got.cigar == mpi_lcs._reference.align(a, b)[1]
        assert mpi_lcs.distance(a, b) == levenshtein(a, b)
        assert mpi_lcs.lcs_length(a, b) == lcs_len(a, b)
    assert mpi_lcs.align(b"", b"").cigar == ""


def test_kitten_sitting_reads_as_the_cli_prints_it():
    got = mpi_lcs.align(b"kitten", b"sitting")
    assert (got.distance, got.cigar, got.engine in ("wave", "bands")) == (3, "1X3=1X1=1D", True)
    assert str(got) == "kitten-\n.|||.| \nsitting"
    assert "distance=3" in repr(got)
    lcs = mpi_lcs.align("AGGTAB", "GXTXAYB", problem="lcs")
    assert (lcs.lcs, lcs.lcs_length) == ("GTAB", 4)


def test_task_distance_gives_the_value_without_a_path(rng):
    for _ in range(30):
        a = random_bytes(rng, rng.randrange(400))
        b = mutate(rng, a, 0.1)
        d = mpi_lcs.align(a, b, task="distance")
        assert (d.distance, d.cigar, d.view, d.engine) == (levenshtein(a, b), None, None, "rows")
        l = mpi_lcs.align(a, b, problem="lcs", task="distance")
        assert l.lcs_length == lcs_len(a, b) and l.lcs is None


def test_long_pairs_values_by_doubling_bands_are_the_paths(rng):
    """Pairs of millions of cells take the doubling bands: the same values as the paths'."""
    for rate in (0.001, 0.05, 0.6):
        a = random_bytes(rng, 3000 + rng.randrange(2000))
        b = mutate(rng, a, rate)
        assert mpi_lcs.distance(a, b) == mpi_lcs.align(a, b, engine="bands").distance
        lcs = mpi_lcs.align(a, b, problem="lcs", engine="bands").lcs_length
        assert mpi_lcs.lcs_length(a, b) == lcs
        assert mpi_lcs.align(a, b, problem="lcs", task="distance").lcs_length == lcs
    a = random_bytes(rng, 300_000)
    b = mutate(rng, a, 0.001)
    assert mpi_lcs.align(a, b, task="distance").distance == mpi_lcs.align(a, b).distance


def test_distance_follows_rapidfuzz_score_cutoff(rng):
    for _ in range(80):
        a = random_bytes(rng, rng.randrange(200))
        b = mutate(rng, a, rng.choice([0.01, 0.1, 0.5]))
        d = levenshtein(a, b)
        for cut in [0, 1, 5, d - 1, d, d + 1, 1000]:
            if cut < 0:
                continue
            assert mpi_lcs.distance(a, b, score_cutoff=cut) == (d if d <= cut else cut + 1)
        assert mpi_lcs.distance(a, b) == d


def test_long_similar_pairs_take_the_wave_and_agree_with_the_bands(rng):
    a = random_bytes(rng, 200_000)
    b = mutate(rng, a, 0.001)
    auto = mpi_lcs.align(a, b)
    bands = mpi_lcs.align(a, b, engine="bands")
    assert auto.engine == "wave"
    assert auto.cigar == bands.cigar and auto.distance == bands.distance
    assert apply_cigar(auto.cigar, a, b) == auto.distance
    assert auto.view is None, "no view past 300 bytes"


@pytest.mark.parametrize("problem", ["edit", "lcs"])
def test_the_cigar_is_the_clis(cli, tmp_path, rng, problem):
    for n in range(6):
        a = random_bytes(rng, rng.choice([1, 64, 65, 300, 2000]))
        b = mutate(rng, a, 0.1) if n % 2 else random_bytes(rng, rng.choice([3, 128, 900]))
        pair = tmp_path / f"pair{n}.txt"
        pair.write_bytes(a + b"\n" + b + b"\n")
        report = tmp_path / f"pair{n}.json"
        run_cli(cli, "solve", pair, "--problem", problem, "--engine", "bands", "-q",
                "--json", report)
        want = json.loads(report.read_text())
        got = mpi_lcs.align(a, b, problem=problem)
        assert got.cigar == want["cigar"]
        if problem == "edit":
            assert got.distance == want["distance"]
        else:
            assert got.lcs_length == want["lcs_length"]
