# The two commands of the README: `make run` (the main job) and `make test` (all tests).
# Both run scripts/setup.sh first, which installs MPI, libclang and Chromium (the tests drive
# the classroom page in it) where they are missing; `make lint` runs it with --lint, which
# installs shellcheck as well.

# Open MPI refuses to run as root unless told twice, and refuses more ranks than cores unless
# oversubscription is allowed; both are harmless otherwise (MPICH ignores them). See
# docs/clusters.md, "Running mpirun by hand".
export OMPI_ALLOW_RUN_AS_ROOT ?= 1
export OMPI_ALLOW_RUN_AS_ROOT_CONFIRM ?= 1
export OMPI_MCA_rmaps_base_oversubscribe ?= 1

# Which MPI (docs/mpi-families.md): unset, the system's mpicc and mpirun (in target/);
# MPI=mpich or MPI=openmpi, that family installed beside the other (Debian's names; MPICC and
# MPI_LCS_LAUNCHER_CMD name others), built in a target directory of its own, because the mpi
# crate's build script does not rerun when MPICC changes and would keep the other library.
MPI ?=
ifeq ($(MPI),mpich)
export MPICC ?= mpicc.mpich
export MPI_LCS_LAUNCHER_CMD ?= mpiexec.mpich
else ifeq ($(MPI),openmpi)
export MPICC ?= mpicc.openmpi
export MPI_LCS_LAUNCHER_CMD ?= mpirun.openmpi
else ifneq ($(MPI),)
$(error MPI must be mpich or openmpi, or unset for the system's MPI, not '$(MPI)')
endif
ifneq ($(MPI),)
export CARGO_TARGET_DIR := $(or $(CARGO_TARGET_DIR),target)/$(MPI)
export MPI_LCS_TEST_LAUNCHER ?= $(MPI_LCS_LAUNCHER_CMD)
endif

RANKS ?= 2
INPUT ?= inputs/large.txt
ENGINE ?= diagonal
STORE ?=
BIN := $(or $(CARGO_TARGET_DIR),target)/release/mpi-lcs
# --store belongs to the diagonal engine only.
METHOD := --engine $(ENGINE) $(if $(STORE),--store $(STORE))
# The shell scripts (scripts/bench is Python), by their shebangs: those without an extension too.
SHELL_SCRIPTS = $(shell grep -l -E '^\#!.*[/ ](ba)?sh$$' scripts/* .ci/run)

.PHONY: run test lint build setup setup-lint inputs python

run: setup build
	scripts/launch --oversubscribe -n $(RANKS) -- $(BIN) solve $(INPUT) $(METHOD)

# Most integration tests wait on launchers and browsers more than they compute: four at a
# time finish sooner than two, even on two cores.
TEST_THREADS ?= 4

test: setup
	cargo test --workspace -- --test-threads=$(TEST_THREADS)
	scripts/python-test

# The Python package (python/, docs/python.md) in a virtual environment of its own, .venv:
# `. .venv/bin/activate` and `import mpi_lcs`.
python: setup
	python3 -m venv .venv
	.venv/bin/pip install --quiet --disable-pip-version-check ./python
	@echo "installed: . .venv/bin/activate && python3 -c 'import mpi_lcs'"

# The Python package's crate is a workspace of its own (it links no MPI): checked by its manifest.
PYTHON_CRATE := --manifest-path python/Cargo.toml

lint: setup-lint
	cargo fmt --all --check
	cargo fmt $(PYTHON_CRATE) --check
	cargo clippy --workspace --all-targets -- -D warnings
	CARGO_TARGET_DIR=target/python-build cargo clippy $(PYTHON_CRATE) --all-targets -- -D warnings
	RUSTDOCFLAGS="-D warnings" cargo doc --workspace --no-deps
	RUSTDOCFLAGS="-D warnings" CARGO_TARGET_DIR=target/python-build cargo doc $(PYTHON_CRATE) --no-deps
	shellcheck -S warning $(SHELL_SCRIPTS)

build: setup
	cargo build --release

setup:
	@scripts/setup.sh $(MPI)

setup-lint:
	@scripts/setup.sh --lint $(MPI)

inputs: setup
	scripts/make-inputs.sh
