//! Integration tests: the real `mpi-lcs` binary, alone and under `mpirun`.

mod util;

mod bands;
mod commands;
mod experiment;
mod faults;
mod solve;
