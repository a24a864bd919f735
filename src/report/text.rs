//! How reports write numbers and CSV headers.

/// `1234567` as `1,234,567`.
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (k, c) in digits.chars().enumerate() {
        if k > 0 && (digits.len() - k).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// The CSV header line (without its newline) of a row type, derived from its fields' names.
pub fn csv_header<T: serde::Serialize + Default>() -> String {
    let mut w = csv::Writer::from_writer(Vec::new());
    w.serialize(T::default()).expect("a row serializes");
    let bytes = w.into_inner().expect("writing to memory cannot fail");
    let text = String::from_utf8(bytes).expect("the header is UTF-8");
    text.lines().next().unwrap_or_default().to_owned()
}
