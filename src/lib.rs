//! mpi-lcs: the longest common subsequence of two byte sequences, computed over MPI ranks
//! with the diagonal (wavefront) schedule, one point-to-point message per boundary cell, and a
//! traceback that forwards the subsequence found so far backwards through the owning ranks.
//!
//! The library holds all logic; the binary only calls [`commands::main`]. The layers, each
//! using only itself and those below it (the tests below check it on the source):
//!
//! 1. the command line: [`cli`] (what is accepted), [`options`] (validated, with the
//!    environment: with [`launch`], the only modules that read it), [`commands`] (what each
//!    subcommand does, `self-test` among them);
//! 2. what comes out: [`report`] (one model for JSON, CSV rows and the summary),
//!    [`alignment`] (CIGAR, PAF and the three-line view), [`matches`] (a search's TSV, report
//!    and rows), [`export`]
//!    (files written atomically), [`render`] (the classroom's pictures and page), [`plot`],
//!    [`runs`] and [`table`] (result sets), [`generate`] (random inputs);
//! 3. the computation: [`engine`] (the MPI layer: the diagonal and bands engines and what
//!    they share), [`reference`](mod@reference) (the sequential oracle), [`trace`] (the recording of a run);
//! 4. the ground: [`input`], [`error`], [`mem`], [`cgroup`], [`cpus`], [`provenance`], [`progress`].

pub mod cgroup;
pub mod cli;
pub mod commands;
pub mod cpus;
pub mod engine;
pub mod error;
pub mod export;
pub mod generate;
pub mod input;
pub mod launch;
pub mod matches;
pub mod mem;
pub mod options;
pub mod paf;
pub mod plot;
pub mod progress;
pub mod provenance;
pub mod render;
pub mod report;
pub mod runs;
pub mod table;
pub mod trace;

#[cfg(test)]
mod structure {
    //! The layering the crate doc promises, checked on the source itself.

    use std::collections::{BTreeMap, BTreeSet};
    use std::path::Path;

    /// The layer of each module, lowest first: a module may use its own layer and those below.
    /// The engine's parts are modules of their own (`engine::bands`, ...), so the check
    /// also sees their imports of one another.
    const LAYERS: [&[&str]; 4] = [
        &[
            "input",
            "error",
            "mem",
            "cgroup",
            "cpus",
            "provenance",
            "progress",
        ],
        &["engine", "trace"],
        &[
            "report",
            "paf",
            "matches",
            "alignment",
            "export",
            "render",
            "plot",
            "runs",
            "table",
            "generate",
        ],
        &["cli", "options", "launch", "commands"],
    ];

    fn layer(module: &str) -> usize {
        let top = module.split("::").next().unwrap_or(module);
        LAYERS
            .iter()
            .position(|l| l.contains(&top))
            .unwrap_or_else(|| panic!("module {module} is in no layer: place it in LAYERS"))
    }

    /// Every `.rs` file under `src`, whole, with the module it belongs to: the top-level
    /// module, or `engine::PART` inside the engine.
    fn sources(dir: &Path, module: Option<&str>, out: &mut Vec<(String, String)>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            let name = path.file_stem().unwrap().to_string_lossy().into_owned();
            let here = match module {
                None => name.clone(),
                Some("engine") if name != "mod" => format!("engine::{name}"),
                Some(m) => m.to_owned(),
            };
            if path.is_dir() {
                sources(&path, Some(&here), out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push((here, std::fs::read_to_string(&path).unwrap()));
            }
        }
    }

    fn modules() -> Vec<(String, String)> {
        let mut out = Vec::new();
        let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        sources(&src, None, &mut out);
        out.retain(|(m, _)| m != "lib" && m != "main");
        out
    }

    /// The code of a file without its tests (tests may use anything).
    fn code(text: &str) -> &str {
        text.split("#[cfg(test)]").next().unwrap()
    }

    /// The modules a piece of code names through `crate::` (`engine::PART` for the engine's
    /// parts).
    fn uses(code: &str) -> BTreeSet<String> {
        let ident = |s: &str| -> String {
            s.chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect()
        };
        let module = |path: &str| -> String {
            let top = ident(path);
            let rest = &path[top.len()..];
            match rest.strip_prefix("::") {
                Some(part) if top == "engine" => {
                    let part = ident(part);
                    if part.starts_with(|c: char| c.is_ascii_lowercase()) {
                        format!("engine::{part}")
                    } else {
                        top
                    }
                }
                _ => top,
            }
        };
        let mut found = BTreeSet::new();
        let mut rest = code;
        while let Some(at) = rest.find("crate::") {
            rest = &rest[at + "crate::".len()..];
            if let Some(braced) = rest.strip_prefix('{') {
                // `use crate::{a, b::c}`: every path at the top of the braces.
                let inner = &braced[..braced.find('}').unwrap_or(braced.len())];
                for part in inner.split(',').map(str::trim).filter(|p| !p.is_empty()) {
                    found.insert(module(part));
                }
            } else if !ident(rest).is_empty() {
                found.insert(module(rest));
            }
        }
        found
    }

    fn graph() -> BTreeMap<String, BTreeSet<String>> {
        let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        for (module, text) in modules() {
            let edges = graph.entry(module.clone()).or_default();
            edges.extend(uses(code(&text)).into_iter().filter(|u| *u != module));
        }
        graph
    }

    #[test]
    fn modules_form_no_cycle() {
        let graph = graph();
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
            graph["engine::diagonal"].contains("engine::walk"),
            "the scan sees the imports: {:?}",
            graph["engine::diagonal"]
        );
        assert!(graph.len() > 30, "{:?}", graph.keys());
    }

    #[test]
    fn modules_use_only_their_layer_and_those_below() {
        for (module, uses) in graph() {
            for used in uses {
                assert!(
                    layer(&used) <= layer(&module),
                    "{module} (layer {}) uses {used} (layer {})",
                    layer(&module) + 1,
                    layer(&used) + 1
                );
            }
        }
    }

    #[test]
    fn only_the_engine_and_the_commands_speak_mpi() {
        // The MPI crate is the engine's, and the commands' that start MPI and drive runs.
        for (module, text) in modules() {
            let mpi = code(&text).contains("use mpi::");
            let allowed = module.starts_with("engine") || module == "commands";
            assert!(!mpi || allowed, "{module} uses MPI");
        }
    }

    #[test]
    fn only_the_command_line_reads_the_environment() {
        // Whole files, tests included: a test that sets or reads a variable changes what the
        // others see.
        for (module, text) in modules() {
            let reads = text.contains("env::var") || text.contains("env::set_var");
            assert!(
                !reads || module == "options" || module == "launch",
                "{module} reads the environment"
            );
        }
    }

    /// Every `.rs` file under `src`, by its path from `src`, whole.
    fn files() -> Vec<(String, String)> {
        fn walk(dir: &Path, src: &Path, out: &mut Vec<(String, String)>) {
            for entry in std::fs::read_dir(dir).unwrap() {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    walk(&path, src, out);
                } else if path.extension().is_some_and(|e| e == "rs") {
                    let name = path.strip_prefix(src).unwrap().display().to_string();
                    out.push((name, std::fs::read_to_string(&path).unwrap()));
                }
            }
        }
        let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let mut out = Vec::new();
        walk(&src, &src, &mut out);
        out
    }

    #[test]
    fn no_file_has_more_than_800_lines_of_code() {
        // Tests beside the code do not count: they stay with what they test.
        for (file, text) in files() {
            let lines = code(&text).lines().count();
            assert!(lines <= 800, "{file}: {lines} lines before its tests");
        }
    }

    #[test]
    fn markup_is_escaped_in_one_place() {
        // `render::xml::escape` escapes every text put into SVG or HTML (plotters' text too,
        // through the plots' backend): no other code spells an entity out.
        let files = files();
        assert!(files.len() > 30);
        for (file, text) in files {
            let escapes = ["&amp;", "&lt;", "&quot;"]
                .iter()
                .any(|entity| code(&text).contains(entity));
            assert!(
                !escapes || file == "render/xml.rs",
                "{file} escapes markup itself"
            );
        }
    }

    #[test]
    fn every_module_opens_with_a_doc() {
        for (module, text) in modules() {
            assert!(
                text.trim_start().starts_with("//!"),
                "{module} has no module doc"
            );
        }
    }
}
