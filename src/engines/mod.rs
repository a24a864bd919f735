//! The engines that compute a pair (or a search) over MPI ranks, side by side, and what a run
//! of any of them needs.
//!
//! - [`diagonal`] — the report's design: each rank computes a contiguous share of every
//!   anti-diagonal ([`diagonal::schedule`]), keeps its cells in a store ([`diagonal::store`])
//!   and sends each boundary value as its own message ([`diagonal::fill`]).
//! - [`bands`] — each rank owns a band of whole 64-bit words of columns ([`bands::plan`]),
//!   advances its rows 64 cells per word operation ([`bands::advance`]) and sends one message
//!   of carries per batch of rows ([`bands::fill`]); on similar sequences only a diagonal band
//!   is filled (`lcs_core::diagonal_band`).
//! - [`search`] — approximate search: each rank scans its part of the text.
//! - [`pairs`] — many pairs at once: each rank computes its share of the pairs of two files of
//!   sequences (or of one), many short pairs in the lanes of one vector.
//!
//! The pair engines are laid out alike: a plan of who owns what, a store of what a rank keeps,
//! the MPI fill, and a walker that answers the traceback's questions on the rank's own cells;
//! [`traceback`] moves the walk between ranks. A run is asked for by a [`config::RunConfig`],
//! laid out by [`layout::Layout`] and driven by [`solve::solve`]: rank 0 reads the input and
//! shares it, every rank checks the memory it will need ([`budget`]), runs the layout, and the
//! records are gathered to rank 0 as a [`solve::Solved`]. [`cost`] estimates either engine's
//! time in closed form. Nothing here writes a file or formats a report.

pub mod bands;
pub mod budget;
pub mod config;
pub mod cost;
pub mod diagonal;
pub mod layout;
pub mod outcome;
pub mod pairs;
pub mod search;
pub mod solve;
pub mod traceback;
