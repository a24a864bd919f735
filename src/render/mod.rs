//! What the classroom sees: the schedule as text ([`text`]), pictures of a schedule or a run
//! as SVG ([`svg`]), and the look they share with the plots ([`style`]).

pub mod style;
pub mod svg;
pub mod text;
