//! What the classroom sees: the schedule as text ([`text`]), pictures of a schedule or a run
//! as SVG ([`svg`]), the page that plays them step by step ([`html`]), the bands engine's
//! layout ([`bands`]), and the look they share with the plots ([`style`]).
//!
//! A picture is made in steps, each in a module of its own: what it shows ([`picture`]: the
//! model, its hops and arrows), where everything goes (`layout`: sizes, positions, the
//! legend's lines), and the drawings of the matrix (`grid`), the traceback walk (`walk`) and
//! the legend (`legend`); [`svg`] puts them together. A bands run or schedule is drawn from its
//! [`pipeline`] (the bands at the engine's word or a teaching word) by [`bands_picture`], cell
//! by cell or, when cells are too small, by blocks of bands and batches, with the per-rank
//! `timeline` beneath; what the page teaches besides the run (its introduction, the two
//! engines compared, the batch's trade) is written in [`lesson`], and the page's legend in
//! `page_legend`. What the legends say about the run's problem (the LCS or the edit distance)
//! is written once, in `words`. Every hand-written SVG in the crate, the plots' included, is
//! written by [`xml::SvgWriter`], and every text put into SVG or HTML is escaped by
//! [`xml::escape`].

pub mod bands;
pub mod bands_picture;
pub mod diagonal_picture;
mod grid;
pub mod html;
mod layout;
mod legend;
pub mod lesson;
mod marks;
mod page_legend;
pub mod picture;
pub mod pipeline;
pub mod style;
pub mod svg;
pub mod text;
mod timeline;
mod walk;
mod words;
pub mod xml;
