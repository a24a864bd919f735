"""Shared helpers of the package's tests: seeded random sequences, plain DPs written here in
Python (an oracle independent of the crate), and the CLI binary to compare against."""

import os
import pathlib
import random
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]


def levenshtein(a, b):
    """The edit distance by the textbook DP, O(len(a) * len(b))."""
    prev = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        cur = [i] + [0] * len(b)
        for j, y in enumerate(b, 1):
            cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (x != y))
        prev = cur
    return prev[-1]


def lcs_len(a, b):
    """The LCS length by the textbook DP."""
    prev = [0] * (len(b) + 1)
    for x in a:
        cur = [0] * (len(b) + 1)
        for j, y in enumerate(b, 1):
            cur[j] = prev[j - 1] + 1 if x == y else max(prev[j], cur[j - 1])
        prev = cur
    return prev[-1]


def cigar_ops(cigar):
    """A CIGAR's operations, one letter each: '2=1X' -> '==X'."""
    out, count = [], ""
    for c in cigar:
        if c.isdigit():
            count += c
        else:
            out.append(c * int(count))
            count = ""
    return "".join(out)


def apply_cigar(cigar, a, b):
    """Checks that the CIGAR aligns query a to target b; returns its edits."""
    i = j = edits = 0
    for op in cigar_ops(cigar):
        if op == "=":
            assert a[i] == b[j], (cigar, i, j)
            i, j = i + 1, j + 1
        elif op == "X":
            assert a[i] != b[j], (cigar, i, j)
            i, j, edits = i + 1, j + 1, edits + 1
        elif op == "I":
            i, edits = i + 1, edits + 1
        elif op == "D":
            j, edits = j + 1, edits + 1
        else:
            raise AssertionError(f"unknown operation {op} in {cigar}")
    assert (i, j) == (len(a), len(b)), cigar
    return edits


# Lengths around the 64-bit words the kernels step.
EDGE_LENGTHS = [0, 1, 2, 31, 32, 33, 63, 64, 65, 127, 128, 129, 191, 192, 193]


def random_bytes(rng, n, alphabet=b"ACGT"):
    return bytes(rng.choice(alphabet) for _ in range(n))


def mutate(rng, seq, rate, alphabet=b"ACGT"):
    """A copy of seq with about rate * len(seq) random edits."""
    out = bytearray(seq)
    for _ in range(int(len(seq) * rate) + 1):
        kind = rng.randrange(3)
        at = rng.randrange(len(out) + 1)
        if kind == 0 and at < len(out):
            out[at] = rng.choice(alphabet)
        elif kind == 1 and at < len(out):
            del out[at]
        else:
            out.insert(at, rng.choice(alphabet))
    return bytes(out)


@pytest.fixture
def rng(request):
    """A generator seeded by the test's name: every run the same inputs."""
    return random.Random(request.node.name)


@pytest.fixture(scope="session")
def cli():
    """The mpi-lcs binary (MPI_LCS_BIN, or the workspace's debug or release build)."""
    named = os.environ.get("MPI_LCS_BIN")
    candidates = [pathlib.Path(named)] if named else []
    target = pathlib.Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target"))
    candidates += [target / "debug" / "mpi-lcs", target / "release" / "mpi-lcs"]
    for c in candidates:
        if c.is_file():
            return c
    pytest.fail(
        "the mpi-lcs binary is missing: build it first (cargo build), or name it in MPI_LCS_BIN; "
        f"looked at {', '.join(map(str, candidates))}"
    )


def run_cli(cli, *args):
    """Runs the CLI without a launcher (one rank); its standard output."""
    done = subprocess.run(
        [str(cli), *map(str, args)], capture_output=True, check=False, timeout=300
    )
    assert done.returncode == 0, done.stderr.decode(errors="replace")
    return done.stdout
