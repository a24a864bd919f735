//! The memory budget of a run: what each rank will occupy, checked against the limit before
//! anything is allocated, and, when it does not fit, what would.
//!
//! A rank's need is what it already occupies (its peak resident set so far: the program, the
//! MPI library, the sequences it holds), plus the store's estimate (the pages the store will
//! touch, see `store`), plus the reversed copy of the longer sequence the fill reads, plus a
//! margin for the MPI library's communication buffers. The advice compares the busiest rank of
//! other stores and rank counts by closed-form bounds, so it costs O(1) per candidate whatever
//! the size: a refusal is as quick as an acceptance.

use crate::mem;
use crate::schedule::Schedule;
use crate::store::StoreKind;

/// Room left for the MPI library's buffers, which grow with the number of peers: a fixed part
/// and a fraction of the rest.
const MARGIN_FIXED: u64 = 1 << 20;
const MARGIN_PERCENT: u64 = 3;

/// What one rank will occupy at its peak, in bytes.
pub fn need(baseline: u64, store: u64, schedule: &Schedule) -> u64 {
    let planned = baseline + store + schedule.cols() as u64;
    planned + MARGIN_FIXED + planned * MARGIN_PERCENT / 100
}

/// The message for a run that will not fit: its need, the limit, and what would fit: the
/// other store, or the smallest power-of-two multiple of the rank count (up to 4,096) whose
/// busiest rank fits. `baseline` is rank 0's.
pub fn advice(schedule: &Schedule, store: StoreKind, limit: u64, baseline: u64) -> String {
    let busiest = |s: &Schedule, kind: StoreKind| need(baseline, kind.busiest_bytes(s), s);
    let mut fits = Vec::new();
    let other = store.other();
    let other_need = busiest(schedule, other);
    if other_need <= limit {
        fits.push(format!(
            "--store {other} needs about {} per rank",
            mem::human(other_need)
        ));
    }
    let mut p = schedule.ranks();
    while p < 4096 && p < schedule.rows() {
        p = (p * 2).min(schedule.rows());
        let s = Schedule::new(schedule.rows(), schedule.cols(), p);
        let need = busiest(&s, store);
        if need <= limit {
            fits.push(format!(
                "{p} ranks need about {} each (on hosts with that much per rank)",
                mem::human(need)
            ));
            break;
        }
    }
    let hint = if fits.is_empty() {
        "no store or rank count up to 4096 fits; use a machine with more memory".to_owned()
    } else {
        format!("would fit: {}", fits.join("; "))
    };
    format!(
        "not enough memory: store {store} for {} x {} on {} ranks needs about {} per rank, \
         limit is {} per rank; {hint}",
        schedule.rows(),
        schedule.cols(),
        schedule.ranks(),
        mem::human(busiest(schedule, store)),
        mem::human(limit),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn advice_names_what_fits_and_is_instant_at_any_size() {
        let s = Schedule::new(540, 550, 2);
        let text = advice(&s, StoreKind::Hash, 20 << 20, 12 << 20);
        assert!(text.starts_with("not enough memory: store hash for 540 x 550 on 2 ranks"));
        assert!(text.contains("limit is 20.0 MiB per rank"), "{text}");
        assert!(text.contains("--store dense needs about"), "{text}");
        // 300,000 x 300,000 with a limit nothing meets, and 10^6 rows: quick.
        let started = std::time::Instant::now();
        for (m, p) in [(300_000, 1), (300_000, 2), (1_000_000, 3)] {
            let s = Schedule::new(m, m, p);
            let text = advice(&s, StoreKind::Hash, 1 << 20, 12 << 20);
            assert!(
                text.contains("no store or rank count up to 4096 fits"),
                "{text}"
            );
        }
        assert!(
            started.elapsed().as_secs_f64() < 0.1,
            "{:?}",
            started.elapsed()
        );
        // More ranks help the dense store of a long matrix.
        let s = Schedule::new(50_000, 50_000, 1);
        let text = advice(&s, StoreKind::Dense, 100 << 20, 12 << 20);
        assert!(text.contains("ranks need about"), "{text}");
    }
}
