//! How long the ranks of a run waited for a core that another process or rank held
//! ([`crate::cpus::queued_seconds`]), as the reports give it (`per_rank[].seconds_queued`:
//! of the run, from its start to rank 0's `seconds.total` and the same stretch on the other
//! ranks; null where the system does not say, and for `reference`) and as their summaries name
//! the ranks that waited for much of the run.

/// The share of a run a rank may wait for a core before the summary says so.
pub const QUEUED_NOTED: f64 = 0.05;

/// The ranks of a run of `total` seconds that waited for a core (`(rank, seconds)`, `None`
/// where the system did not say) for at least [`QUEUED_NOTED`] of it and a millisecond, with
/// their seconds, as the summaries print them: another process, or more ranks than cores, held
/// it. `None` where no rank did.
pub fn queued_line(
    total: f64,
    queued: impl Iterator<Item = (usize, Option<f64>)>,
) -> Option<String> {
    let waited: Vec<String> = queued
        .filter_map(|(rank, q)| q.map(|q| (rank, q)))
        .filter(|&(_, q)| q >= 1e-3 && q >= QUEUED_NOTED * total)
        .map(|(rank, q)| format!("p{rank} {q:.3} s ({:.0}%)", 100.0 * q / total))
        .collect();
    (!waited.is_empty()).then(|| {
        format!(
            "waited for a core that another process or rank held, of the run's {total:.3} s: {}",
            waited.join(", ")
        )
    })
}

/// A record's seconds waiting for a core, NaN where the system did not say, as the report
/// gives them.
pub fn queued_of(seconds: f64) -> Option<f64> {
    (!seconds.is_nan()).then_some(seconds)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_ranks_that_waited_for_a_core_are_named_from_a_twentieth_of_the_run() {
        let line = |q: &[Option<f64>]| queued_line(2.0, q.iter().copied().enumerate());
        assert_eq!(line(&[Some(0.0), None, Some(0.099)]), None);
        assert_eq!(
            line(&[Some(0.1), None, Some(1.0)]).as_deref(),
            Some(
                "waited for a core that another process or rank held, of the run's 2.000 s: \
                 p0 0.100 s (5%), p2 1.000 s (50%)"
            )
        );
        // A millisecond at least, however short the run.
        assert_eq!(queued_line(0.001, [(0, Some(0.0009))].into_iter()), None);
        assert_eq!(queued_of(f64::NAN), None);
        assert_eq!(queued_of(0.5), Some(0.5));
    }
}
