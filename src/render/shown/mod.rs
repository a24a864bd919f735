//! What the classroom is shown, before anything is placed or drawn: the [`picture::Picture`] of
//! a schedule or a run (its cells' owners, values, messages and walk) and its walk's [`hops`], a
//! bands run's [`pipeline`], a wave run's score steps ([`wavefront`]), what the page teaches
//! besides the run ([`lesson`]), and what the legends say about a run's problem (`words`) and
//! about a wave run's marks ([`wave_words`]). Nothing here knows where a mark goes or how it
//! looks: the drawing and the page read their models from here.

pub mod hops;
pub mod lesson;
pub mod picture;
pub mod pipeline;
pub mod wave_words;
pub mod wavefront;
pub(super) mod words;
