//! Integration tests: the real `mpi-lcs` binary, alone and under `mpirun`.

mod browser;
mod util;

mod bands;
mod classroom;
mod commands;
mod edit;
mod experiment;
mod faults;
mod gpu;
mod gpu_pair;
mod inputs;
mod launchers;
mod lecture;
mod pairs;
mod projector;
mod search;
mod solve;
mod wave;
mod wave_page;
