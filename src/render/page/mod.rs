//! The classroom page: one self-contained HTML file ([`html`]) that plays a schedule or a run
//! step by step, with its grid drawn by `drawn`, the data its script plays (`data`), its legend
//! (`legend`, a wave run's in `wave_legend`, their words set for HTML by `formulas`), and its
//! style sheet and script, the `page.css` and `*.js` files of this folder, compiled in.

mod data;
mod formulas;
pub mod html;
mod legend;
mod projector_legend;
mod wave_legend;
