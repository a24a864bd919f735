//! The legends' and the lesson's words on the page: escaped for HTML, each formula (the words
//! mark formulas with backticks) set in `<code>`. The picture's legend drops the backticks
//! instead (`shown::words::plain`).

use crate::render::drawn::xml::escape;

/// `text` for HTML: escaped, each formula between backticks set in `<code>`.
pub(super) fn html(text: &str) -> String {
    let mut out = String::new();
    for (k, part) in text.split('`').enumerate() {
        let part = escape(part);
        if k % 2 == 1 {
            out.push_str("<code>");
            out.push_str(&part);
            out.push_str("</code>");
        } else {
            out.push_str(&part);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formulas_are_code_on_the_page() {
        let text = "up when `M[i−1][j] ≥ M[i][j−1]` & <else> left";
        assert_eq!(
            html(text),
            "up when <code>M[i−1][j] ≥ M[i][j−1]</code> &amp; &lt;else&gt; left"
        );
    }
}
