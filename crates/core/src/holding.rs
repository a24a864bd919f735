//! What one rank of a run will hold at its peak: its engine's working memory, part by part,
//! as the engine allocates it (the bands engine its band's masks, state, checkpoints, carries,
//! seams and block; the diagonal engine its store and its copy of a sequence), so that a memory
//! budget can be checked before anything is allocated and a refusal can name the largest part.
//! Adding a part costs O(1), merging two holdings O(parts^2) (a handful of parts).

use std::fmt;

/// Named parts of a rank's working memory, in bytes.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Holding {
    parts: Vec<(&'static str, u64)>,
}

impl Holding {
    /// Nothing held.
    pub fn new() -> Holding {
        Holding::default()
    }

    /// This holding and `bytes` more, named `part`.
    pub fn with(mut self, part: &'static str, bytes: u64) -> Holding {
        self.parts.push((part, bytes));
        self
    }

    /// This holding and `other`'s parts, each added to the part of its name (or named anew).
    pub fn plus(mut self, other: &Holding) -> Holding {
        for &(part, bytes) in &other.parts {
            match self.parts.iter_mut().find(|(p, _)| *p == part) {
                Some((_, held)) => *held += bytes,
                None => self.parts.push((part, bytes)),
            }
        }
        self
    }

    /// Bytes of every part.
    pub fn total(&self) -> u64 {
        self.parts.iter().map(|&(_, b)| b).sum()
    }

    /// The part holding the most, if any part holds anything.
    pub fn largest(&self) -> Option<(&'static str, u64)> {
        self.parts
            .iter()
            .copied()
            .filter(|&(_, b)| b > 0)
            .max_by_key(|&(_, b)| b)
    }

    /// The parts, in the order the engine named them.
    pub fn parts(&self) -> &[(&'static str, u64)] {
        &self.parts
    }
}

/// `masks 1.2 MiB, checkpoints 3.0 MiB`: every part that holds anything.
impl fmt::Display for Holding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let shown: Vec<String> = self
            .parts
            .iter()
            .filter(|&&(_, b)| b > 0)
            .map(|&(part, b)| format!("{part} {}", human(b)))
            .collect();
        f.write_str(&shown.join(", "))
    }
}

/// A byte count for people, in binary units: `999 B`, `512.0 MiB`.
pub fn human(bytes: u64) -> String {
    const UNITS: [&str; 5] = ["B", "KiB", "MiB", "GiB", "TiB"];
    let mut v = bytes as f64;
    let mut u = 0;
    while v >= 1024.0 && u + 1 < UNITS.len() {
        v /= 1024.0;
        u += 1;
    }
    if u == 0 {
        format!("{bytes} B")
    } else {
        format!("{v:.1} {}", UNITS[u])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parts_add_up_and_name_the_largest() {
        let h = Holding::new()
            .with("masks", 1 << 20)
            .with("seams", 0)
            .with("checkpoints", 3 << 20);
        assert_eq!(h.total(), 4 << 20);
        assert_eq!(h.largest(), Some(("checkpoints", 3 << 20)));
        assert_eq!(h.to_string(), "masks 1.0 MiB, checkpoints 3.0 MiB");
        assert_eq!(h.parts().len(), 3);
        assert_eq!(Holding::new().largest(), None);
        assert_eq!(Holding::new().total(), 0);
    }
}
