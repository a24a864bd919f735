//! The classroom's pictures and page, made in three stages: what is shown ([`shown`]: the models
//! of a schedule or a run), where it goes and how it is drawn as SVG ([`drawn`]), and the page
//! that plays it step by step ([`html`], with its legends in `page_legend` and [`wave_legend`]).

pub mod drawn;
pub mod html;
mod page_legend;
pub mod shown;
pub mod wave_legend;
