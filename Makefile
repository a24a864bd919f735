# The two commands of the README: `make run` (the main job) and `make test` (all tests).
# Both run scripts/setup.sh first, which installs MPI, libclang and Chromium (the tests drive
# the classroom page in it) where they are missing.

# Open MPI refuses to run as root unless told twice, and refuses more ranks than cores unless
# oversubscription is allowed; both are harmless otherwise. See README, "Running mpirun by hand".
export OMPI_ALLOW_RUN_AS_ROOT ?= 1
export OMPI_ALLOW_RUN_AS_ROOT_CONFIRM ?= 1
export OMPI_MCA_rmaps_base_oversubscribe ?= 1

RANKS ?= 2
INPUT ?= inputs/large.txt
ENGINE ?= diagonal
STORE ?=
BIN := target/release/mpi-lcs
# --store belongs to the diagonal engine only.
METHOD := --engine $(ENGINE) $(if $(STORE),--store $(STORE))

.PHONY: run test lint build setup inputs bench

run: setup build
	mpirun -n $(RANKS) $(BIN) solve $(INPUT) $(METHOD)

test: setup
	cargo test

lint: setup
	cargo fmt --check
	cargo clippy --all-targets -- -D warnings

build: setup
	cargo build --release

setup:
	@scripts/setup.sh

inputs: setup
	scripts/make-inputs.sh
