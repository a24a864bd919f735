#!/usr/bin/env bash
# Runs the full experiment (scripts/experiment) as a Slurm batch job across the allocated
# nodes, so the rank counts of the report's table can be measured on real cores instead of
# oversubscribed ones. Submit it from the repository's root:
#
#     sbatch scripts/slurm-experiment.sh
#     sbatch --nodes=4 --ntasks=32 scripts/slurm-experiment.sh       # a bigger allocation
#     REPS=5 LAUNCHER=mpirun sbatch scripts/slurm-experiment.sh      # settings travel along
#
# Slurm runs a copy of this file, so the repository is found through $SLURM_SUBMIT_DIR. The
# repository (and so the binary) must be at the same path on every node: a shared home or
# project directory. Inputs need not be shared: only rank 0 reads the input.
#
# Settings, from the environment at submission:
#   LAUNCHER  how ranks start: "srun" (default; needs an MPI built with Slurm's PMI, which
#             some sites select with e.g. LAUNCHER="srun --mpi=pmix"), or "mpirun", which
#             reads the allocation itself
#   RANKS     rank counts (default: 1 2 4 8 16 ... up to the allocated tasks)
#   STORES, REPS, INPUTS, OUT, MAX_SECONDS: passed on as scripts/experiment's options
#   TABLE     where `mpi-lcs table` writes the Markdown (default: results/README.md)
#
#SBATCH --job-name=mpi-lcs-experiment
#SBATCH --nodes=2
#SBATCH --ntasks=16
#SBATCH --cpus-per-task=1
#SBATCH --time=02:00:00
#SBATCH --output=slurm-experiment-%j.out
set -euo pipefail

cd "${SLURM_SUBMIT_DIR:-$(dirname "${BASH_SOURCE[0]}")/..}"
if [ ! -x scripts/experiment ]; then
    echo "slurm-experiment: run sbatch from the mpi-lcs repository's root" >&2
    exit 2
fi

# Build once, on this first node, before any rank starts (cargo only rebuilds what changed).
if [ -z "${MPI_LCS_BIN:-}" ] && [ ! -x target/release/mpi-lcs ]; then
    cargo build --release --quiet
fi

tasks="${SLURM_NTASKS:-1}"
if [ -z "${RANKS:-}" ]; then
    RANKS=""
    for ((p = 1; p <= tasks; p *= 2)); do RANKS+="${RANKS:+ }$p"; done
fi

echo "job ${SLURM_JOB_ID:-?}: ${SLURM_JOB_NUM_NODES:-?} nodes" \
    "(${SLURM_JOB_NODELIST:-?}), $tasks tasks"
echo "ranks: $RANKS; launcher: ${LAUNCHER:-srun}"

out="${OUT:-results/runs.csv}"
args=(--launcher "${LAUNCHER:-srun}" --ranks "$RANKS" --reps "${REPS:-3}" --out "$out")
if [ -n "${STORES:-}" ]; then args+=(--stores "$STORES"); fi
if [ -n "${INPUTS:-}" ]; then args+=(--inputs "$INPUTS"); fi
if [ -n "${MAX_SECONDS:-}" ]; then args+=(--max-seconds "$MAX_SECONDS"); fi

# Failed configurations make the experiment exit non-zero after it ran the others; the
# table is still made from the rows that were recorded.
status=0
scripts/experiment "${args[@]}" || status=$?
table="${TABLE:-$(dirname "$out")/README.md}"
if [ -s "$out" ]; then
    "${MPI_LCS_BIN:-target/release/mpi-lcs}" table "$out" --out "$table" && echo "table: $table" || status=1
fi
exit "$status"
