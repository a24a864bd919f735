#!/usr/bin/env bash
# Runs the experiment (scripts/experiment) as a Slurm batch job, so the rank counts of the
# report's table can be measured on real cores instead of oversubscribed ones. Build the
# binary first, on the login node (`cargo build --release`), then submit from the
# repository's root:
#
#     sbatch scripts/slurm-experiment.sh                          # 1 node, 4 tasks, 30 min
#     sbatch --nodes=2 --ntasks=16 --time=02:00:00 scripts/slurm-experiment.sh
#     LAUNCHER=mpirun REPS=5 sbatch scripts/slurm-experiment.sh   # settings travel along
#
# The defaults below fit a small partition; options on the sbatch command line override them
# (docs/clusters.md, "With Slurm", says how to scale up). Slurm runs a copy of this file, so
# the repository is found through $SLURM_SUBMIT_DIR; it (and so the binary) must be at the
# same path on every node: a shared home or project directory. Inputs need not be shared:
# only rank 0 reads the input. Nothing is built here: a compute node may have no Rust at all.
#
# Settings, from the environment at submission:
#   LAUNCHER  how ranks start (default "srun --mpi=pmix -K"): Slurm starts them through PMIx,
#             which Debian's Open MPI and most builds speak (plain `srun` and
#             `srun --mpi=pmi2` fail with "OMPI was not built with SLURM's PMI support";
#             `srun --mpi=list` shows what your Slurm offers), and -K (--kill-on-bad-exit)
#             ends the whole step within a second when one rank fails, instead of leaving
#             the others waiting until the job's time limit. LAUNCHER=mpirun: Open MPI's
#             mpirun, which reads the allocation itself.
#   RANKS     rank counts (default: 1 2 4 ... up to the allocated tasks, and the tasks)
#   ENGINES, STORES, REPS, INPUTS, TIMEOUT, MAX_SECONDS: scripts/experiment's options
#   OUT       the result set (default: a new results/runs/<UTC time>-slurm-<job id>.csv)
#   TABLE     the Markdown table (default: OUT with .md); plots go to OUT without .csv
#   MPI_LCS_BIN the binary (default: target/release/mpi-lcs, or under $CARGO_TARGET_DIR)
#
# Hosts with several network interfaces: tell Open MPI which one joins the nodes, or it may
# try one that does not, and hang or fail:
#   export OMPI_MCA_btl_tcp_if_include=eth0      # the ranks' messages (srun and mpirun)
#   export OMPI_MCA_oob_tcp_if_include=eth0      # mpirun's own control channel (mpirun only)
# (an interface name, or a subnet such as 10.1.0.0/16), before sbatch: the job inherits it.
#
# Exit status: 0 when every run succeeded; 1 when some failed or timed out (the table is
# still made from the runs that succeeded); 2 for a missing or stale binary or bad settings;
# 3 when no solve run succeeded, and then no table is written.
#
#SBATCH --job-name=mpi-lcs-experiment
#SBATCH --nodes=1
#SBATCH --ntasks=4
#SBATCH --cpus-per-task=1
#SBATCH --time=00:30:00
#SBATCH --output=slurm-experiment-%j.out
set -euo pipefail

cd "${SLURM_SUBMIT_DIR:-$(dirname "${BASH_SOURCE[0]}")/..}"
if [ ! -x scripts/experiment ]; then
    echo "slurm-experiment: submit from the mpi-lcs repository's root" \
        "(no scripts/experiment in $PWD)" >&2
    exit 2
fi

# The binary must be built already, and from these sources.
if [ -n "${MPI_LCS_BIN:-}" ]; then
    bin="$MPI_LCS_BIN"
else
    target="${CARGO_TARGET_DIR:-target}"
    bin="$target/release/mpi-lcs"
fi
case "$bin" in /*) ;; *) bin="$PWD/$bin" ;; esac
if [ ! -x "$bin" ]; then
    echo "slurm-experiment: no mpi-lcs binary at $bin." >&2
    echo "  Build it before submitting, on the login node: cargo build --release" >&2
    echo "  (or set MPI_LCS_BIN); compute nodes build nothing." >&2
    exit 2
fi
if newer="$(find src Cargo.toml -newer "$bin" -print -quit 2>/dev/null)" && [ -n "$newer" ]; then
    echo "slurm-experiment: $bin is older than the sources ($newer is newer):" \
        "it would measure other code than this commit." >&2
    echo "  Rebuild it before submitting: cargo build --release" >&2
    exit 2
fi
export MPI_LCS_BIN="$bin"

tasks="${SLURM_NTASKS:-1}"
if [ -z "${RANKS:-}" ]; then
    RANKS=""
    for ((p = 1; p <= tasks; p *= 2)); do RANKS+="${RANKS:+ }$p"; done
    if [ "$((p / 2))" != "$tasks" ]; then RANKS+=" $tasks"; fi
fi
launcher="${LAUNCHER:-srun --mpi=pmix -K}"
out="${OUT:-results/runs/$(date -u +%Y%m%dT%H%M%SZ)-slurm-${SLURM_JOB_ID:-0}.csv}"
table="${TABLE:-${out%.csv}.md}"

echo "job ${SLURM_JOB_ID:-?}: ${SLURM_JOB_NUM_NODES:-?} nodes" \
    "(${SLURM_JOB_NODELIST:-?}), $tasks tasks"
echo "ranks: $RANKS; launcher: $launcher; binary: $bin"
for var in OMPI_MCA_btl_tcp_if_include OMPI_MCA_oob_tcp_if_include; do
    if [ -n "${!var:-}" ]; then echo "$var=${!var}"; fi
done

args=(--launcher "$launcher" --ranks "$RANKS" --reps "${REPS:-3}" --out "$out")
if [ -n "${ENGINES:-}" ]; then args+=(--engines "$ENGINES"); fi
if [ -n "${STORES:-}" ]; then args+=(--stores "$STORES"); fi
if [ -n "${INPUTS:-}" ]; then args+=(--inputs "$INPUTS"); fi
if [ -n "${TIMEOUT:-}" ]; then args+=(--timeout "$TIMEOUT"); fi
if [ -n "${MAX_SECONDS:-}" ]; then args+=(--max-seconds "$MAX_SECONDS"); fi

# Failed configurations make the experiment exit 1 after it ran the others; the table is then
# made from the runs that succeeded. With no successful solve run at all (exit 3) there is
# nothing to tabulate, and no table is written: a table of nothing looks like a result.
status=0
scripts/experiment "${args[@]}" || status=$?
case "$status" in
    0 | 1)
        "$bin" table "$out" --out "$table" && echo "table: $table" || status=1
        "$bin" plot "$out" --out "${out%.csv}" >/dev/null && echo "plots: ${out%.csv}/" ||
            status=1
        ;;
    3) echo "slurm-experiment: no solve run succeeded; no table written" >&2 ;;
esac
exit "$status"
