//! How reports write numbers, counts and CSV headers.

pub use crate::mem::thousands;

/// A count and its noun, as a summary says it: `1 pattern`, `1,024 patterns`.
pub fn plural(n: u64, one: &str, many: &str) -> String {
    match n {
        1 => format!("1 {one}"),
        n => format!("{} {many}", thousands(n)),
    }
}

/// The CSV header line (without its newline) of a row type, derived from its fields' names.
pub fn csv_header<T: serde::Serialize + Default>() -> String {
    let mut w = csv::Writer::from_writer(Vec::new());
    w.serialize(T::default()).expect("a row serializes");
    let bytes = w.into_inner().expect("writing to memory cannot fail");
    let text = String::from_utf8(bytes).expect("the header is UTF-8");
    text.lines().next().unwrap_or_default().to_owned()
}
