//! Which implementation of the fused four-row steps runs: the portable one, compiled
//! everywhere, or a vector one chosen at run time where the CPU has its features.

use crate::problem::Problem;

/// Rows the fused steps ([`Row::step4`](super::Row::step4) and its siblings) advance in one
/// call.
pub const FUSED_ROWS: usize = 4;

/// Which implementation of the fused steps (four rows per call) runs: the portable one, compiled
/// everywhere, or one that needs CPU features and is chosen at run time where the CPU has them
/// (the memchr model). Every kernel gives the same bits; [`Kernel::for_words`] is what
/// [`Row::step4`](super::Row::step4) and its siblings use, and the `_with` ones take one
/// explicitly so that the tests and the micro-benchmark run each on the same inputs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kernel {
    /// Plain 64-bit words: for the LCS four rows per pass, for the edit distance two passes of
    /// two rows.
    Portable,
    /// The four rows as the four 64-bit lanes of a 256-bit vector, in a wavefront (`four_rows`),
    /// each word step in AVX2.
    #[cfg(target_arch = "x86_64")]
    Avx2,
    /// The same wavefront with AVX-512's three-input logic, funnel shift and lane alignment on
    /// 256-bit vectors (AVX-512F, VL and VBMI2): fewer instructions per step.
    #[cfg(target_arch = "x86_64")]
    Avx512,
}

/// The narrowest row the vector kernels take for `problem` (see [`Kernel::for_words`]): where
/// the vector kernel overtakes the portable one (`cargo bench --bench kernel -- narrow`; the
/// figures are in `docs/performance.md`).
pub const fn vector_min_words(problem: Problem) -> usize {
    match problem {
        Problem::Lcs => 48,
        Problem::Edit => 16,
    }
}

impl Kernel {
    /// The fastest kernel this CPU runs. The feature tests are a load and a bit test each after
    /// the first call (the standard library caches what `cpuid` said).
    #[inline]
    pub fn detected() -> Kernel {
        #[cfg(target_arch = "x86_64")]
        for kernel in [Kernel::Avx512, Kernel::Avx2] {
            if kernel.is_available() {
                return kernel;
            }
        }
        Kernel::Portable
    }

    /// The kernel for four rows of `words` words of `problem`: [`Kernel::detected`], or the
    /// portable one for a row narrower than [`vector_min_words`], where the wavefront's three
    /// extra steps and its lanes' loads cost more than four plain carry chains side by side (a
    /// narrow diagonal band's windows).
    #[inline]
    pub fn for_words(problem: Problem, words: usize) -> Kernel {
        match words < vector_min_words(problem) {
            true => Kernel::Portable,
            false => Kernel::detected(),
        }
    }

    /// Whether this CPU can run the kernel.
    #[inline]
    pub fn is_available(self) -> bool {
        match self {
            Kernel::Portable => true,
            #[cfg(target_arch = "x86_64")]
            Kernel::Avx2 => std::arch::is_x86_feature_detected!("avx2"),
            #[cfg(target_arch = "x86_64")]
            Kernel::Avx512 => {
                std::arch::is_x86_feature_detected!("avx512f")
                    && std::arch::is_x86_feature_detected!("avx512vl")
                    && std::arch::is_x86_feature_detected!("avx512vbmi2")
            }
        }
    }

    /// Every kernel this build has, the portable one first.
    pub fn all() -> Vec<Kernel> {
        vec![
            Kernel::Portable,
            #[cfg(target_arch = "x86_64")]
            Kernel::Avx2,
            #[cfg(target_arch = "x86_64")]
            Kernel::Avx512,
        ]
    }

    /// Every kernel this CPU can run, the portable one first.
    pub fn available() -> Vec<Kernel> {
        Kernel::all()
            .into_iter()
            .filter(|k| k.is_available())
            .collect()
    }

    /// A short lower-case name, for the benchmark's lines.
    pub fn name(self) -> &'static str {
        match self {
            Kernel::Portable => "portable",
            #[cfg(target_arch = "x86_64")]
            Kernel::Avx2 => "avx2",
            #[cfg(target_arch = "x86_64")]
            Kernel::Avx512 => "avx512",
        }
    }
}

/// Says on standard error which of a family's kernels this CPU could not run, so that the
/// tests that run every kernel do not pass over one silently: written past the test
/// harness's capture, it shows in every `cargo test`.
#[cfg(test)]
pub(crate) fn say_unchecked(family: &str, missing: &[&str]) {
    use std::io::Write;
    if !missing.is_empty() {
        let _ = writeln!(
            std::io::stderr(),
            "{family}: kernels this CPU cannot run, not checked here: {}",
            missing.join(", ")
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn narrow_rows_go_to_the_portable_kernel() {
        for problem in [Problem::Lcs, Problem::Edit] {
            let least = vector_min_words(problem);
            assert_eq!(Kernel::for_words(problem, least - 1), Kernel::Portable);
            assert_eq!(Kernel::for_words(problem, least), Kernel::detected());
        }
    }
}
