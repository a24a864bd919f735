//! What the classroom sees: the schedule as text ([`text`]), pictures of a schedule or a run as SVG
//! ([`svg`]: [`diagonal_picture`], [`bands_picture`], the latter cell by cell or, when cells are
//! too small, by blocks of bands and batches, or a wave run's [`wave_picture`]), the page that plays them step by step ([`html`],
//! with what it teaches besides the run in [`shown::lesson`] and its legend in `page_legend`), the bands
//! layout to scale ([`bands`]), and the look shared with the plots ([`style`]). A picture is made
//! in steps, each in a module of its own: what it shows ([`shown::picture`], a bands run's
//! [`shown::pipeline`], a wave run's steps in [`shown::wavefront`]), where everything goes (`layout`), and the
//! drawings of the matrix (`grid`), the walk (`walk`), the title (`title`), the legend (`legend`)
//! and the timeline (`timeline`), with the problem's words (`words`) written once. Every
//! hand-written SVG is written by [`xml::SvgWriter`] and every text put into SVG or HTML escaped
//! by [`xml::escape`].

pub mod bands;
pub mod bands_picture;
pub mod diagonal_picture;
mod grid;
pub mod html;
mod layout;
mod legend;
mod legend_keys;
mod marks;
mod page_legend;
pub mod shown;
pub mod style;
pub mod svg;
pub mod text;
mod timeline;
mod title;
mod walk;
pub mod wave_legend;
pub mod wave_picture;
pub mod xml;
