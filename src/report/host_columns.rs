//! The eight columns that end every result set's row (`solve`'s, `search`'s, `pairs`'s): where
//! and with what the run ran, from its provenance. Declared once, here, so that the three
//! result sets name, order and fill them alike: `host_columns!` declares a row struct with its
//! own columns and then these, and builds a row from its own values and then these of a run.

/// Declares a row struct with its own columns followed by the eight host columns
/// (`host_columns! { pub struct Row { … } }`), or builds one from its own values followed by
/// those of a run's [`crate::provenance::Provenance`] (`host_columns!(Row { … } of &run)`).
macro_rules! host_columns {
    (
        $(#[$meta:meta])*
        pub struct $name:ident {
            $($own:tt)*
        }
    ) => {
        $(#[$meta])*
        pub struct $name {
            $($own)*
            /// Rank 0's host.
            pub host: String,
            /// Every host, separated by spaces.
            pub hosts: String,
            pub cpu: String,
            pub cores: usize,
            pub ranks_per_host: usize,
            pub oversubscribed: bool,
            pub launcher: String,
            pub mpi_library: String,
        }
    };
    ($name:ident { $($own:tt)* } of $run:expr) => {{
        let run: &$crate::provenance::Provenance = $run;
        $name {
            $($own)*
            host: run.host.clone(),
            hosts: run.hosts.join(" "),
            cpu: run.cpu.clone(),
            cores: run.cores,
            ranks_per_host: run.ranks_per_host,
            oversubscribed: run.oversubscribed,
            launcher: run.launcher.clone(),
            mpi_library: run.mpi_library.clone(),
        }
    }};
}
pub(crate) use host_columns;
