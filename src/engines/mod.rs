//! The engines that compute a pair (or a search) over MPI ranks, side by side, and what a run of
//! any of them needs; nothing here writes a file or formats a report. [`diagonal`] is the report's
//! design (a share of every anti-diagonal per rank, a message per boundary cell), [`bands`] the
//! column bands (a band of whole words per rank, a message of carries per batch of rows, only a
//! diagonal band on similar sequences), [`wave`] the diagonal transition (each score step's
//! diagonals split among the ranks, a halo exchanged per step), [`search`] the approximate search
//! (each rank scans its part of the text), [`pairs`] many pairs at once (each rank its share of the
//! pairs, many short pairs in the lanes of one vector). The pair engines are laid out alike: a plan of who owns
//! what, a store, the MPI fill, and a walker for the rank's own cells; [`traceback`] moves the
//! walk between ranks.
//!
//! A run is asked for by a [`config::RunConfig`] (`--engine auto` resolved by [`choice`]), laid out
//! by [`layout::Layout`] and driven by [`solve::solve`]: rank 0 reads and shares the input, every
//! rank checks the memory its engine says it will hold ([`holding`], [`budget`]) and runs the
//! layout, and every rank's [`record::RankStats`] is gathered to rank 0 ([`solve::Solved`]).
//! [`cost`] estimates each engine's time in closed form. `docs/algorithms.md#the-diagonal-engine`
//! and the sections after it.

pub mod bands;
pub mod budget;
pub mod choice;
pub mod config;
pub mod cost;
pub mod device;
pub mod diagonal;
pub mod holding;
pub mod layout;
pub mod outcome;
pub mod pairs;
pub mod record;
pub mod search;
pub mod solve;
pub mod traceback;
pub mod wave;
