//! The boundary messages a schedule predicts, between each pair of neighbouring ranks: what the
//! engines' plans count from their arithmetic alone, and what a run's report sets beside the
//! messages it counted. Adding a count costs O(1); [`Predicted::pairs`] O(P^2).

/// Predicted boundary message counts. Messages only go between neighbouring ranks, the ranks
/// in a ring when the bands engine's bands lap (the last rank's band sends to rank 0's next).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Predicted {
    pub total: u64,
    /// `down[k]`: messages from rank `k` to rank `k + 1`.
    pub down: Vec<u64>,
    /// `up[k]`: messages from rank `k + 1` to rank `k`.
    pub up: Vec<u64>,
    /// Messages from the last rank to rank 0 around the ring, when they are not neighbours
    /// anyway (more than two ranks).
    pub ring: u64,
}

impl Predicted {
    /// No message yet, among `ranks` ranks.
    pub fn none(ranks: usize) -> Predicted {
        let edges = ranks.saturating_sub(1);
        Predicted {
            total: 0,
            down: vec![0; edges],
            up: vec![0; edges],
            ring: 0,
        }
    }

    /// Counts `count` messages from `from` to its neighbour `to` (the last rank's neighbours
    /// include rank 0, around the ring).
    pub fn add(&mut self, from: usize, to: usize, count: u64) {
        self.total += count;
        if to == from + 1 {
            self.down[from] += count;
        } else if from == to + 1 {
            self.up[to] += count;
        } else {
            debug_assert_eq!(
                (from, to),
                (self.down.len(), 0),
                "messages go to neighbours only"
            );
            self.ring += count;
        }
    }

    /// Adds `other`'s counts (among as many ranks) to these.
    pub fn plus(&mut self, other: &Predicted) {
        debug_assert_eq!(self.down.len(), other.down.len(), "the same ranks");
        self.total += other.total;
        for (mine, theirs) in [(&mut self.down, &other.down), (&mut self.up, &other.up)] {
            for (a, b) in mine.iter_mut().zip(theirs) {
                *a += b;
            }
        }
        self.ring += other.ring;
    }

    /// The counts as a `P x P` table, `pairs[from][to]` (as runs report them).
    pub fn pairs(&self) -> Vec<Vec<u64>> {
        let p = self.down.len() + 1;
        let mut pairs = vec![vec![0u64; p]; p];
        for k in 0..p - 1 {
            pairs[k][k + 1] = self.down[k];
            pairs[k + 1][k] = self.up[k];
        }
        pairs[p - 1][0] += self.ring;
        pairs
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_each_edge_and_the_ring() {
        let mut p = Predicted::none(3);
        p.add(0, 1, 2);
        p.add(2, 1, 1);
        p.add(2, 0, 4);
        let mut q = Predicted::none(3);
        q.add(1, 2, 3);
        p.plus(&q);
        assert_eq!((p.total, p.ring), (10, 4));
        assert_eq!((p.down.clone(), p.up.clone()), (vec![2, 3], vec![0, 1]));
        assert_eq!(p.pairs(), vec![vec![0, 2, 0], vec![0, 0, 3], vec![4, 1, 0]]);
        assert_eq!(Predicted::none(1).pairs(), vec![vec![0]]);
    }
}
