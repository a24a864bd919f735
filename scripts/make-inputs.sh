#!/usr/bin/env bash
# Regenerates the benchmark inputs in inputs/ with `mpi-lcs generate`.
#
# The generator is seeded and platform-independent, so the files are reproducible byte for
# byte: running this script on a clean checkout must leave `git status` unchanged. The lengths
# and seeds below are the only place they are defined.
#
#   scripts/make-inputs.sh           the five committed inputs
#   scripts/make-inputs.sh --huge    also inputs/huge.txt: two 1,000,000-character sequences
#                                    (2 MB, not committed; the bands engine's scale test)
#   scripts/make-inputs.sh --near    also inputs/near_0.1.txt, near_1.txt, near_5.txt and
#                                    near_10.txt: a 1,000,000-character sequence and a copy of
#                                    it with 0.1%, 1%, 5% and 10% of edits (generate --mutate;
#                                    not committed; the diagonal band's and the wave engine's
#                                    tests, and --engine auto's)
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

huge=0
near=0
case "${1:-}" in
    "") ;;
    --huge) huge=1 ;;
    --near) near=1 ;;
    *) echo "usage: scripts/make-inputs.sh [--huge | --near]" >&2; exit 2 ;;
esac

# Cargo only rebuilds when sources changed, so this is cheap when the binary is current.
cargo build --release --quiet
bin="${CARGO_TARGET_DIR:-target}/release/mpi-lcs"

mkdir -p inputs

#        file          len      len2     seed
while read -r name len len2 seed; do
    if [ "$name" = huge.txt ] && [ "$huge" = 0 ]; then continue; fi
    "$bin" generate --len "$len" --len2 "$len2" --alphabet ACGT --seed "$seed" -o "inputs/$name"
    echo "inputs/$name: $len x $len2, seed $seed"
done <<'TABLE'
small.txt      11       13       1
medium.txt     540      550      2
large.txt      1000     1000     3
large_2.txt    10000    10000    4
large_3.txt    50000    50000    5
huge.txt       1000000  1000000  6
TABLE

#        file            len      rate   seed
while read -r name len rate seed; do
    if [ "$near" = 0 ]; then continue; fi
    "$bin" generate --len "$len" --mutate "$rate" --alphabet ACGT --seed "$seed" -o "inputs/$name"
    echo "inputs/$name: $len and a copy with $rate of edits, seed $seed"
done <<'TABLE'
near_0.1.txt    1000000  0.001  7
near_1.txt      1000000  0.01   8
near_5.txt      1000000  0.05   10
near_10.txt     1000000  0.1    9
TABLE
