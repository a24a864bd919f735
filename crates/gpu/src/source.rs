//! The kernel text, assembled for a build: the build's defines, the prelude that maps OpenCL C
//! and CUDA C to one set of names, the bit-parallel steps, then the kernel. Either backend
//! compiles the same string.

/// The prelude (`kernels/prelude.h`).
pub const PRELUDE: &str = include_str!("kernels/prelude.h");
/// The word and column steps (`kernels/steps.h`).
pub const STEPS: &str = include_str!("kernels/steps.h");

/// A kernel of this crate.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Kernel {
    /// `kernels/pairs.cl`: a work-item per pair.
    Pairs,
    /// `kernels/search.cl`: a work-item per pattern and chunk of text.
    Search,
    /// `kernels/bands.cl`: a work-item per tile of one band of a long pair.
    Bands,
}

impl Kernel {
    /// The entry point's name.
    pub fn entry(self) -> &'static str {
        match self {
            Kernel::Pairs => "pairs",
            Kernel::Search => "search",
            Kernel::Bands => "bands",
        }
    }

    fn body(self) -> &'static str {
        match self {
            Kernel::Pairs => include_str!("kernels/pairs.cl"),
            Kernel::Search => include_str!("kernels/search.cl"),
            Kernel::Bands => include_str!("kernels/bands.cl"),
        }
    }
}

/// The text of `kernel` built with `defines` (each `#define NAME VALUE`).
pub fn text(kernel: Kernel, defines: &[(&str, u64)]) -> String {
    let mut text: String = defines
        .iter()
        .map(|(name, value)| format!("#define {name} {value}\n"))
        .collect();
    for part in [PRELUDE, STEPS, kernel.body()] {
        text.push_str(part);
        text.push('\n');
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_defines_come_before_the_prelude_and_the_kernel_last() {
        let t = text(Kernel::Search, &[("WORDS", 4), ("SIGMA", 256)]);
        assert!(t.starts_with("#define WORDS 4\n#define SIGMA 256\n"));
        let (prelude, steps, kernel) = (
            t.find("#ifdef __OPENCL_VERSION__").unwrap(),
            t.find("DEVICE int edit_word").unwrap(),
            t.find("KERNEL search(").unwrap(),
        );
        assert!(prelude < steps && steps < kernel);
    }
}
