//! The step of the recurrence ([`super::front`]) by the kernel the compare kernel names: the
//! portable one, or on x86-64 with AVX2 the gathering one (`gather`). Both give the
//! same values.

use crate::problem::Problem;

use super::compare::Compare;
use super::front::{step_words, Prev, Work};
use super::seqs::Seqs;

/// Computes step `t`'s values of the diagonals `first, first + stride, ...` (one per entry of
/// `out`) from `prev`, which must hold step `t - 1`'s values of their neighbours (`first - 1`
/// to the last one's `+ 1`), then slides each along its matches. Returns the work done.
pub fn step(
    problem: Problem,
    compare: Compare,
    prev: Prev<'_>,
    first: i64,
    out: &mut [i32],
    seqs: &Seqs,
) -> Work {
    if out.is_empty() {
        return Work::default();
    }
    let slid = match compare {
        Compare::Words => step_words(problem, prev, first, out, (seqs.x(), seqs.y())),
        // SAFETY: `Compare::Avx2` is only made where the CPU has AVX2 (and with it BMI1).
        #[cfg(target_arch = "x86_64")]
        Compare::Avx2 => unsafe { super::gather::step_avx2(problem, prev, first, out, seqs) },
    };
    Work {
        diagonals: out.len() as u64,
        slid,
    }
}
