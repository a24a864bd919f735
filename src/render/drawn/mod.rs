//! How the classroom's pictures are laid out and drawn, as SVG: [`svg`] draws a picture by
//! engine, the diagonal engine's ([`diagonal_picture`]), the bands engine's ([`bands_picture`],
//! with its timeline) or a wave run's ([`wave_picture`]), and [`bands_to_scale`] the bands of a
//! schedule too large for those. A picture is made in steps, each in a module of its own: where
//! everything goes (`layout`, a bands picture's [`bands_layout`], and what the legend explains in
//! `legend_keys`), then the drawings of the matrix (`grid`), the walk (`walk`), the title
//! (`title`), the legend (`legend`), the timeline (`timeline`) and the marks they refer to
//! (`marks`). [`text`] writes the schedule as text, [`style`] holds the look shared with the
//! plots, and every hand-written SVG is written by [`xml::SvgWriter`] and every text put into SVG
//! or HTML escaped by [`xml::escape`].

pub mod bands_layout;
pub mod bands_picture;
pub mod bands_to_scale;
pub mod diagonal_picture;
mod grid;
mod layout;
mod legend;
mod legend_keys;
mod marks;
pub mod style;
pub mod svg;
pub mod text;
mod timeline;
mod title;
mod walk;
pub mod wave_picture;
pub mod xml;
