"""Edit distance with its alignment, LCS, cdist and approximate search: mpi-lcs's kernels in
one process, the GIL released while they work (docs/python.md)."""

from collections.abc import Iterable
from typing import Literal, NamedTuple, Optional, Union

import numpy as np
import numpy.typing as npt

Sequence = Union[bytes, bytearray, memoryview, npt.NDArray[np.uint8], str]
"""Bytes-like sequences are compared byte by byte, str by code point; one call takes one kind."""

__version__: str
MOST_SYMBOLS: int
"""The most distinct code points the strings of one call may hold (256)."""

class Alignment:
    """An alignment of two sequences, as `align` returns it."""

    problem: Literal["edit", "lcs"]
    distance: int
    """The edit distance; for the LCS, the indel distance len(a) + len(b) - 2 * lcs_length."""
    lcs_length: Optional[int]
    """The LCS's length (None for the edit distance)."""
    cigar: Optional[str]
    """The SAM-style CIGAR (=, X, I, D), the CLI's string; None for task="distance"."""
    engine: Literal["bands", "wave", "rows"]
    """The engine that found it ("rows": the distance alone)."""
    @property
    def lcs(self) -> Optional[Union[bytes, str]]:
        """The longest common subsequence, of the sequences' type (None for the edit distance)."""
    @property
    def view(self) -> Optional[str]:
        """Three lines: the query with - for gaps, | under a match and . under a substitution,
        the target; None for task="distance" or sequences longer than 300."""

def align(
    a: Sequence,
    b: Sequence,
    problem: Literal["edit", "lcs"] = "edit",
    engine: Literal["auto", "wave", "bands"] = "auto",
    task: Literal["path", "distance"] = "path",
) -> Alignment:
    """Aligns a (the query) and b (the target) as `mpi-lcs solve` does: the same path and CIGAR."""

def distance(a: Sequence, b: Sequence, score_cutoff: Optional[int] = None) -> int:
    """The edit (Levenshtein) distance; above score_cutoff it is score_cutoff + 1 (rapidfuzz's rule)."""

def lcs_length(a: Sequence, b: Sequence) -> int:
    """The length of the longest common subsequence (rapidfuzz's LCSseq.similarity)."""

def cdist(
    queries: Iterable[Sequence],
    choices: Optional[Iterable[Sequence]] = None,
    problem: Literal["edit", "lcs"] = "edit",
    score_cutoff: Optional[int] = None,
    workers: int = 1,
    dtype: Optional[npt.DTypeLike] = None,
) -> npt.NDArray[np.uint32]:
    """Every pair's value as a len(queries) x len(choices) matrix (choices=None: queries against
    themselves), rapidfuzz's values and cutoff rule; workers=-1 takes every core."""

class Match(NamedTuple):
    pattern: int
    """The pattern's number, from 0 in the order given."""
    start: int
    """Where the match starts in the text, 0-based."""
    end: int
    """Where it ends, exclusive."""
    distance: int

def search(
    patterns: Union[Sequence, Iterable[Sequence]],
    text: Sequence,
    k: int,
    workers: int = 1,
    alphabet: Literal["exact", "iupac"] = "exact",
) -> list[Match]:
    """Every end in text where a pattern occurs with at most k edits, as `mpi-lcs search` lists
    them, sorted by pattern and end."""
