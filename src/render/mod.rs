//! What the classroom sees: the schedule as text ([`text`]), pictures of a schedule or a run
//! as SVG ([`svg`]), the page that plays them step by step ([`html`]), and the look they share
//! with the plots ([`style`]).

pub mod bands;
pub mod html;
pub mod style;
pub mod svg;
pub mod text;
