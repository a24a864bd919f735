//! mpi-lcs: the longest common subsequence of two byte sequences, computed over MPI ranks
//! with the diagonal (wavefront) schedule, one point-to-point message per boundary cell, and a
//! traceback that forwards the subsequence found so far backwards through the owning ranks.
//!
//! The library holds all logic; the binary only calls [`commands::main`]. The layers, each
//! using only those below it:
//!
//! - command line: [`cli`] (what is accepted), [`options`] (validated, with the environment:
//!   the only module that reads it), [`launch`], [`commands`] (what each subcommand does);
//! - the MPI run: [`engine`] orchestrates [`fill`] and [`traceback`] over a [`store`], speaking
//!   [`protocol`], waiting as [`waiting`] says, counting in [`traffic`], gathering with
//!   [`stats`]; [`selftest`]; [`fault`];
//! - the arithmetic, without MPI: [`schedule`], [`reference`], [`store`], [`input`],
//!   [`generate`];
//! - what comes out: [`report`], [`provenance`], [`trace`], [`export`], [`render`], [`plot`],
//!   [`runs`], [`table`], [`progress`], [`mem`], [`error`].

pub mod bands;
pub mod budget;
pub mod cli;
pub mod commands;
pub mod engine;
pub mod error;
pub mod export;
pub mod fault;
pub mod fill;
pub mod generate;
pub mod input;
pub mod launch;
pub mod mem;
pub mod options;
pub mod pipeline;
pub mod plot;
pub mod progress;
pub mod protocol;
pub mod provenance;
pub mod reference;
pub mod render;
pub mod report;
pub mod runs;
pub mod schedule;
pub mod selftest;
pub mod stats;
pub mod store;
pub mod table;
pub mod trace;
pub mod traceback;
pub mod traffic;
pub mod waiting;

#[cfg(test)]
mod structure {
    //! The layering the module doc promises, checked on the source itself.

    use std::collections::{BTreeMap, BTreeSet};
    use std::path::Path;

    /// Every `.rs` file under `dir`, with the top-level module it belongs to.
    fn sources(dir: &Path, top: Option<&str>, out: &mut Vec<(String, String)>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            let name = path.file_stem().unwrap().to_string_lossy().into_owned();
            let module = top.map_or(name.clone(), str::to_owned);
            if path.is_dir() {
                sources(&path, Some(&module), out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let text = std::fs::read_to_string(&path).unwrap();
                // Only the code: tests may use anything.
                let code = text.split("#[cfg(test)]").next().unwrap().to_owned();
                out.push((module, code));
            }
        }
    }

    fn modules() -> Vec<(String, String)> {
        let mut out = Vec::new();
        sources(
            &Path::new(env!("CARGO_MANIFEST_DIR")).join("src"),
            None,
            &mut out,
        );
        out.retain(|(m, _)| m != "lib" && m != "main");
        out
    }

    /// The top-level modules a piece of code names through `crate::`.
    fn uses(code: &str) -> BTreeSet<String> {
        let mut found = BTreeSet::new();
        let mut rest = code;
        while let Some(at) = rest.find("crate::") {
            rest = &rest[at + "crate::".len()..];
            let name: String = rest
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            let braced = rest.starts_with('{');
            if braced {
                // `use crate::{a, b::c}`: every name at the top of the braces.
                let inner = &rest[1..rest.find('}').unwrap_or(rest.len())];
                for part in inner.split(',') {
                    let head = part.trim().split("::").next().unwrap_or("").trim();
                    if !head.is_empty() {
                        found.insert(head.to_owned());
                    }
                }
            } else if !name.is_empty() {
                found.insert(name);
            }
        }
        found
    }

    #[test]
    fn modules_form_no_cycle() {
        let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        for (module, code) in modules() {
            let edges = graph.entry(module.clone()).or_default();
            edges.extend(uses(&code).into_iter().filter(|u| *u != module));
        }
        // Depth-first search for a back edge.
        fn visit(
            m: &str,
            graph: &BTreeMap<String, BTreeSet<String>>,
            path: &mut Vec<String>,
            done: &mut BTreeSet<String>,
        ) {
            if done.contains(m) {
                return;
            }
            if let Some(at) = path.iter().position(|p| p == m) {
                panic!("import cycle: {} -> {m}", path[at..].join(" -> "));
            }
            path.push(m.to_owned());
            for next in graph.get(m).into_iter().flatten() {
                visit(next, graph, path, done);
            }
            path.pop();
            done.insert(m.to_owned());
        }
        let mut done = BTreeSet::new();
        for m in graph.keys() {
            visit(m, &graph, &mut Vec::new(), &mut done);
        }
        assert!(
            graph["engine"].contains("fill"),
            "the scan sees the imports"
        );
        assert!(graph.len() > 20, "{:?}", graph.keys());
    }

    #[test]
    fn only_the_command_line_reads_the_environment() {
        for (module, code) in modules() {
            let reads = code.contains("env::var") || code.contains("env::vars");
            assert!(
                !reads || module == "options" || module == "launch",
                "{module} reads the environment"
            );
        }
    }

    #[test]
    fn every_module_opens_with_a_doc() {
        for (module, code) in modules() {
            assert!(
                code.trim_start().starts_with("//!"),
                "{module} has no module doc"
            );
        }
    }
}
