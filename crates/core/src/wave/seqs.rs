//! The two sequences as the wave kernels read them: each copied once with [`SLACK`] bytes of
//! zeros after its end, so that a vector kernel may read a few bytes past the last one without
//! a check (what it reads there is never taken for a match: runs are clipped at the ends).
//! Cost: one copy of each sequence.

/// Bytes after each sequence's end that may be read.
pub const SLACK: usize = 32;

/// `x` (the rows) and `y` (the columns), each followed by [`SLACK`] zero bytes.
#[derive(Debug, Clone)]
pub struct Seqs {
    x: Vec<u8>,
    y: Vec<u8>,
    m: usize,
    n: usize,
}

impl Seqs {
    pub fn new(x: &[u8], y: &[u8]) -> Seqs {
        let padded = |s: &[u8]| {
            let mut v = Vec::with_capacity(s.len() + SLACK);
            v.extend_from_slice(s);
            v.resize(s.len() + SLACK, 0);
            v
        };
        Seqs {
            x: padded(x),
            y: padded(y),
            m: x.len(),
            n: y.len(),
        }
    }

    pub fn x(&self) -> &[u8] {
        &self.x[..self.m]
    }

    pub fn y(&self) -> &[u8] {
        &self.y[..self.n]
    }

    /// Both, with their slack: `SLACK` bytes past each end are readable.
    pub fn padded(&self) -> (&[u8], &[u8]) {
        (&self.x, &self.y)
    }

    /// Bytes held.
    pub fn bytes(&self) -> u64 {
        (self.x.capacity() + self.y.capacity()) as u64
    }
}
