//! What the classroom sees: the schedule as text ([`text`]), pictures of a schedule or a run
//! as SVG ([`svg`]), the page that plays them step by step ([`html`]), the bands engine's
//! layout ([`bands`]), and the look they share with the plots ([`style`]).
//!
//! A picture is made in steps, each in a module of its own: what it shows ([`picture`]: the
//! model, its hops and arrows), where everything goes (`layout`: sizes, positions, the
//! legend's lines), and the drawings of the matrix (`grid`), the traceback walk (`walk`) and
//! the legend (`legend`); [`svg`] puts them together. What the legends say about the run's
//! problem (the LCS or the edit distance) is written once, in `words`. Every hand-written SVG
//! in the crate, the plots' included, is written by [`xml::SvgWriter`], and every text put
//! into SVG or HTML is escaped by [`xml::escape`].

pub mod bands;
mod grid;
pub mod html;
mod layout;
mod legend;
pub mod picture;
pub mod style;
pub mod svg;
pub mod text;
mod walk;
mod words;
pub mod xml;
