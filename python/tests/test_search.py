"""search against the plain DP and the CLI, its parts' edges, and the threads' cuts."""

import pytest

import mpi_lcs
from conftest import mutate, random_bytes, run_cli


def plain(patterns, text, k):
    return sorted(
        (p, s, e, d)
        for p, pattern in enumerate(patterns)
        for (s, e, d) in mpi_lcs._reference.search(pattern, text, k)
    )


@pytest.mark.parametrize("k", [0, 1, 3, 8])
def test_patterns_of_every_width_match_the_plain_dp(rng, k):
    for _ in range(6):
        patterns = [random_bytes(rng, rng.choice([1, 5, 8, 9, 16, 17, 32, 33, 64, 65, 150]))
                    for _ in range(rng.randrange(1, 8))]
        text = bytearray(random_bytes(rng, rng.randrange(3000)))
        for p in patterns:
            at = rng.randrange(len(text) + 1)
            text[at:at] = mutate(rng, p, 0.05)
        got = mpi_lcs.search(patterns, bytes(text), k)
        assert [tuple(m) for m in got] == plain(patterns, bytes(text), k)
        assert all(type(m) is mpi_lcs.Match for m in got)


@pytest.mark.parametrize("k", [0, 1, 2, 3])
def test_patterns_through_the_sieve_match_the_plain_dp(rng, k):
    """Every pattern long enough for the sieve (each of its k + 1 pieces holds 8 bytes), on DNA
    and on any bytes, planted with edits: the same matches as the plain DP, on 1 and 3 threads."""
    for round in range(6):
        symbols = b"ACGT" if round % 2 else bytes(range(256))
        patterns = [random_bytes(rng, 8 * (k + 1) + rng.randrange(30), symbols)
                    for _ in range(rng.randrange(1, 5))]
        text = bytearray(random_bytes(rng, rng.randrange(2000, 6000), symbols))
        for p in patterns * 2:
            at = rng.randrange(len(text) + 1)
            text[at:at] = mutate(rng, p, 0.06)
        text = bytes(text)
        want = plain(patterns, text, k)
        assert [tuple(m) for m in mpi_lcs.search(patterns, text, k)] == want
        assert [tuple(m) for m in mpi_lcs.search(patterns, text, k, workers=3)] == want


def test_threads_cut_the_text_without_losing_or_doubling(rng):
    """A text of several MiB in 1 to 4 parts: matches planted at every part's edge."""
    text = bytearray(random_bytes(rng, 3 << 20))
    pattern = random_bytes(rng, 40)
    long = random_bytes(rng, 300)
    for cut in range(1, 4):
        for parts in (2, 3, 4):
            edge = len(text) * cut // parts
            text[edge - 20:edge + 20] = pattern
            text[edge - 150:edge - 150 + 300] = long if cut % 2 else text[edge - 150:edge + 150]
    text = bytes(text)
    one = mpi_lcs.search([pattern, long], text, 4)
    for workers in (2, 3, 4, -1):
        assert mpi_lcs.search([pattern, long], text, 4, workers=workers) == one
    assert len([m for m in one if m.distance == 0]) >= 6


def test_one_pattern_alone_and_named_fields(rng):
    text = b"TTGATTCATTGATTACAG"
    got = mpi_lcs.search(b"GATTACA", text, 1)
    assert (10, 17, 0) in [(m.start, m.end, m.distance) for m in got]
    assert got[0].pattern == 0
    assert mpi_lcs.search("GATTACA", text.decode(), 1) == got


def test_the_matches_are_the_clis(cli, tmp_path, rng):
    patterns = [random_bytes(rng, n) for n in (12, 32, 90)]
    text = bytearray(random_bytes(rng, 50_000))
    for p in patterns * 3:
        at = rng.randrange(len(text))
        text[at:at] = mutate(rng, p, 0.05)
    (tmp_path / "p.txt").write_bytes(b"".join(p + b"\n" for p in patterns))
    (tmp_path / "t.txt").write_bytes(bytes(text) + b"\n")
    out = run_cli(cli, "search", tmp_path / "p.txt", tmp_path / "t.txt", "-k", "3", "-q")
    lines = out.decode().splitlines()
    assert lines[0].split("\t") == ["pattern", "record", "start", "end", "distance"]
    want = [(int(p), int(s), int(e), int(d))
            for p, _, s, e, d in (line.split("\t") for line in lines[1:])]
    got = [tuple(m) for m in mpi_lcs.search(patterns, bytes(text), 3)]
    assert got == want and len(want) >= 9


def test_iupac_codes_match_when_their_bases_meet(rng):
    for _ in range(8):
        patterns = [bytearray(random_bytes(rng, rng.choice([6, 20, 40, 100]))) for _ in range(3)]
        for p in patterns:
            for _ in range(len(p) // 6 + 1):
                p[rng.randrange(len(p))] = rng.choice(b"NRY")
        patterns = [bytes(p) for p in patterns]
        text = bytearray(random_bytes(rng, 4000, b"ACGTACGTn"))
        for p in patterns:
            at = rng.randrange(len(text))
            text[at:at] = p.replace(b"N", b"A").replace(b"R", b"G").replace(b"Y", b"c")
        text = bytes(text)
        want = sorted((i, s, e, d) for i, p in enumerate(patterns)
                      for (s, e, d) in mpi_lcs._reference.search(p, text, 2, iupac=True))
        got = [tuple(m) for m in mpi_lcs.search(patterns, text, 2, alphabet="iupac")]
        assert got == want and len(got) >= 3
        assert len(mpi_lcs.search(patterns, text, 2)) < len(got)
