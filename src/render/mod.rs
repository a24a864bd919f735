//! The classroom's pictures and page, made in three stages, each in a folder of its own:
//!
//! 1. what is shown ([`shown`]): the models of a schedule or a run, the picture with its
//!    owners, values, messages, walk and hops, a bands run's pipeline, a wave run's score steps,
//!    and the words and lessons the legends and the page teach;
//! 2. where it goes and how it is drawn ([`drawn`]): the layout and the SVG pictures by engine,
//!    the schedule's text view, the look shared with the plots and the one SVG writer;
//! 3. the page that plays it ([`page`]): one HTML file with its grid, legend, data, style sheet
//!    and script.
//!
//! Each stage uses only itself and those before it: the drawing reads the models, the page reads
//! both, and the models know neither (checked by the `structure` tests).

pub mod drawn;
pub mod page;
pub mod shown;
