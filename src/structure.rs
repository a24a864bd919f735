//! The shape the crate docs promise, checked on the source of the three crates and the Python
//! package's: the pure crates
//! (`crates/core`, `crates/gpu`) free of MPI, no import circle between files in any crate, the MPI
//! crate's layers, and the rules every file keeps (a module doc, no measured timing or outside
//! document in a doc comment, at most 800 lines of code, markup escaped in one place, the
//! environment read in two modules, the README's map true to the tree).
//!
//! Imports are read from the text: `use` trees (braces expanded) and inline paths through
//! `crate::`, `super::`, `self::` or a child module's name, each resolved to the file of the
//! longest module it names. A file's tests (every item a `#[cfg(test)]` gates, wherever it
//! stands) may use anything and are not read, nor counted in its size.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// A crate's source: every `.rs` file under `src`, by module path (`engines::bands::fill`;
/// the crate root is the empty path), with its text.
struct Crate {
    /// The crate's name in paths from other crates (`lcs_core`, `mpi_lcs`).
    name: &'static str,
    src: PathBuf,
    files: BTreeMap<String, (PathBuf, String)>,
}

impl Crate {
    fn read(name: &'static str, dir: &str) -> Crate {
        let src = Path::new(env!("CARGO_MANIFEST_DIR")).join(dir).join("src");
        let mut files = BTreeMap::new();
        let mut stack = vec![src.clone()];
        while let Some(dir) = stack.pop() {
            for entry in std::fs::read_dir(&dir).unwrap() {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    stack.push(path);
                } else if path.extension().is_some_and(|e| e == "rs") {
                    let rel = path.strip_prefix(&src).unwrap().with_extension("");
                    let mut parts: Vec<String> = rel
                        .iter()
                        .map(|p| p.to_string_lossy().into_owned())
                        .collect();
                    // `lib.rs` is the crate root (the empty path); `main.rs` keeps its name.
                    if matches!(parts.last().map(String::as_str), Some("mod" | "lib")) {
                        parts.pop();
                    }
                    let text = std::fs::read_to_string(&path).unwrap();
                    files.insert(parts.join("::"), (path, text));
                }
            }
        }
        Crate { name, src, files }
    }

    fn all() -> [Crate; 4] {
        [
            Crate::read("mpi_lcs", "."),
            Crate::read("lcs_core", "crates/core"),
            Crate::read("lcs_gpu", "crates/gpu"),
            Crate::read("mpi_lcs_python", "python"),
        ]
    }

    /// The modules only tests compile: declared under `#[cfg(test)]` (this one), and theirs.
    fn test_modules(&self) -> BTreeSet<String> {
        let mut gated = BTreeSet::new();
        for (module, (_, text)) in &self.files {
            let lines: Vec<&str> = text.lines().map(str::trim).collect();
            for pair in lines.windows(2) {
                let declared = pair[1].strip_prefix("pub ").unwrap_or(pair[1]);
                if let (["#[cfg(test)]", _], Some(name)) = (
                    pair,
                    declared
                        .strip_prefix("mod ")
                        .and_then(|d| d.strip_suffix(';')),
                ) {
                    gated.insert(match module.as_str() {
                        "" => name.to_owned(),
                        m => format!("{m}::{name}"),
                    });
                }
            }
        }
        let within = |m: &String| {
            gated
                .iter()
                .any(|g| m == g || m.starts_with(&format!("{g}::")))
        };
        self.files.keys().filter(|m| within(m)).cloned().collect()
    }

    /// Each file the crate compiles outside its tests, by its path from the workspace root,
    /// with its text.
    fn texts(&self) -> impl Iterator<Item = (String, &str)> {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let tests = self.test_modules();
        let files = self.files.iter().filter(move |(m, _)| !tests.contains(*m));
        files.map(move |(_, (path, text))| {
            let shown = path
                .strip_prefix(root)
                .unwrap_or(path)
                .display()
                .to_string();
            (shown, text.as_str())
        })
    }

    /// The module a path names from module `here`, cut to the longest module that exists;
    /// `None` for a path into another crate or the standard library.
    fn resolve(&self, here: &str, path: &[&str]) -> Option<String> {
        let mut base: Vec<&str> = match here {
            "" => vec![],
            h => h.split("::").collect(),
        };
        let mut rest = path;
        match path.first()? {
            &"crate" => {
                base.clear();
                rest = &path[1..];
            }
            &"self" => rest = &path[1..],
            &"super" => {
                while rest.first() == Some(&"super") {
                    base.pop()?;
                    rest = &rest[1..];
                }
            }
            first => {
                let child = base
                    .iter()
                    .chain([first])
                    .copied()
                    .collect::<Vec<_>>()
                    .join("::");
                if !self.files.contains_key(&child) {
                    return None;
                }
            }
        }
        let mut found = base.join("::");
        let mut at = base;
        for part in rest {
            at.push(part);
            let candidate = at.join("::");
            if !self.files.contains_key(&candidate) {
                break;
            }
            found = candidate;
        }
        Some(found)
    }

    /// Every file's imports of other files of the crate.
    fn graph(&self) -> BTreeMap<String, BTreeSet<String>> {
        let mut graph = BTreeMap::new();
        for (module, (_, text)) in &self.files {
            let mut edges = BTreeSet::new();
            for path in paths(&code(text)) {
                let parts: Vec<&str> = path.split("::").collect();
                if let Some(to) = self.resolve(module, &parts) {
                    if to != *module {
                        edges.insert(to);
                    }
                }
            }
            graph.insert(module.clone(), edges);
        }
        graph
    }
}

/// The code of a file: without its tests ([`without_tests`]), its comments and the contents of
/// its string and character literals.
fn code(text: &str) -> String {
    without_tests(&stripped(text))
}

/// `text` without its comments and the contents of its string and character literals, every
/// line break kept (so that a line of it is the same line of the file).
fn stripped(text: &str) -> String {
    let text: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    let at = |i: usize| text.get(i).copied().unwrap_or('\0');
    while i < text.len() {
        match (at(i), at(i + 1)) {
            ('/', '/') => {
                while i < text.len() && at(i) != '\n' {
                    i += 1;
                }
            }
            ('/', '*') => {
                i += 2;
                while i < text.len() && !(at(i) == '*' && at(i + 1) == '/') {
                    if at(i) == '\n' {
                        out.push('\n');
                    }
                    i += 1;
                }
                i += 2;
            }
            ('r', '"' | '#') if i == 0 || !at(i - 1).is_alphanumeric() => {
                // A raw string: r"...", r#"..."#.
                let mut j = i + 1;
                while at(j) == '#' {
                    j += 1;
                }
                if at(j) != '"' {
                    out.push('r');
                    i += 1;
                    continue;
                }
                let hashes = j - i - 1;
                j += 1;
                out.push('"');
                while j < text.len() && !(at(j) == '"' && (1..=hashes).all(|h| at(j + h) == '#')) {
                    if at(j) == '\n' {
                        out.push('\n');
                    }
                    j += 1;
                }
                out.push('"');
                i = j + 1 + hashes;
            }
            ('"', _) => {
                i += 1;
                out.push('"');
                while i < text.len() && at(i) != '"' {
                    if at(i) == '\n' {
                        out.push('\n');
                    }
                    i += if at(i) == '\\' { 2 } else { 1 };
                }
                out.push('"');
                i += 1;
            }
            ('\'', next) if next == '\\' || at(i + 2) == '\'' => {
                // A character literal (a lifetime has no closing quote).
                i += if next == '\\' { 2 } else { 1 };
                while i < text.len() && at(i) != '\'' {
                    i += 1;
                }
                out.push_str("' '");
                i += 1;
            }
            (c, _) => {
                out.push(c);
                i += 1;
            }
        }
    }
    out
}

/// `code` (comments and literals stripped: [`stripped`]) without its tests: every item a
/// `#[cfg(test)]` line gates, wherever it stands (a module of tests at the end, a helper
/// before other code), its lines left empty so that the others keep their numbers.
fn without_tests(code: &str) -> String {
    let mut out = Vec::new();
    let mut lines = code.lines();
    while let Some(line) = lines.next() {
        if line.trim() != "#[cfg(test)]" {
            out.push(line);
            continue;
        }
        out.push("");
        // The gated item: up to the `;` that ends it, or the brace that closes its block.
        let mut depth = 0i64;
        for line in lines.by_ref() {
            out.push("");
            let opened = line.contains('{');
            depth += line.matches('{').count() as i64 - line.matches('}').count() as i64;
            let ends = line.trim_end().ends_with(';') || line.trim_end().ends_with('}');
            if depth <= 0 && (opened || ends) {
                break;
            }
        }
    }
    out.join("\n")
}

/// Expands a `use` tree (`a::{b, c::{d, e}}`, spaces removed) into its paths.
fn expand(tree: &str) -> Vec<String> {
    let Some(open) = tree.find('{') else {
        return vec![tree.to_owned()];
    };
    let close = tree.rfind('}').unwrap_or(tree.len());
    let (prefix, inner) = (&tree[..open], &tree[open + 1..close]);
    let mut items = Vec::new();
    let (mut depth, mut start) = (0usize, 0usize);
    for (at, c) in inner.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth = depth.saturating_sub(1),
            ',' if depth == 0 => {
                items.push(&inner[start..at]);
                start = at + 1;
            }
            _ => {}
        }
    }
    items.push(&inner[start..]);
    items
        .into_iter()
        .filter(|item| !item.is_empty())
        .flat_map(|item| expand(&format!("{prefix}{item}")))
        .collect()
}

/// The paths a piece of code names: the `use` trees' and every `a::b` path written inline
/// (only its module-looking parts: lower-case names, `crate`, `super`, `self`).
fn paths(code: &str) -> Vec<String> {
    let mut found = Vec::new();
    let mut rest = code;
    while let Some(at) = rest.find("use ") {
        let before = rest[..at].chars().next_back();
        rest = &rest[at + 4..];
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
            continue;
        }
        let end = rest.find(';').unwrap_or(rest.len());
        // `a as b` keeps its path `a`: mark the rename before the spaces go.
        let tree: String = rest[..end]
            .replace(" as ", "@")
            .chars()
            .filter(|c| !c.is_whitespace())
            .collect();
        for path in expand(&tree) {
            let path = path.split('@').next().unwrap_or_default();
            found.push(path.trim_end_matches("::*").to_owned());
        }
    }
    let ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
    let chars: Vec<char> = code.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        if ident(chars[i]) && (i == 0 || !ident(chars[i - 1]) && chars[i - 1] != ':') {
            let mut parts = Vec::new();
            let mut j = i;
            loop {
                let start = j;
                while j < chars.len() && ident(chars[j]) {
                    j += 1;
                }
                parts.push(chars[start..j].iter().collect::<String>());
                if j + 2 < chars.len()
                    && chars[j] == ':'
                    && chars[j + 1] == ':'
                    && ident(chars[j + 2])
                {
                    j += 2;
                } else {
                    break;
                }
            }
            if parts.len() > 1 && parts[0].starts_with(|c: char| c.is_ascii_lowercase()) {
                found.push(parts.join("::"));
            }
            i = j.max(i + 1);
        } else {
            i += 1;
        }
    }
    found
}

/// A circle of imports in `graph`, if there is one.
fn circle(graph: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    fn visit(
        m: &str,
        graph: &BTreeMap<String, BTreeSet<String>>,
        path: &mut Vec<String>,
        done: &mut BTreeSet<String>,
    ) -> Option<Vec<String>> {
        if done.contains(m) {
            return None;
        }
        if let Some(at) = path.iter().position(|p| p == m) {
            let mut found = path[at..].to_vec();
            found.push(m.to_owned());
            return Some(found);
        }
        path.push(m.to_owned());
        for next in graph.get(m).into_iter().flatten() {
            if let Some(found) = visit(next, graph, path, done) {
                return Some(found);
            }
        }
        path.pop();
        done.insert(m.to_owned());
        None
    }
    let mut done = BTreeSet::new();
    graph
        .keys()
        .find_map(|m| visit(m, graph, &mut Vec::new(), &mut done))
}

#[test]
fn no_file_imports_itself_through_others() {
    for krate in Crate::all() {
        let graph = krate.graph();
        if let Some(found) = circle(&graph) {
            panic!("{}: import circle {}", krate.name, found.join(" -> "));
        }
        assert!(graph.len() >= 8, "{}: {:?}", krate.name, graph.keys());
    }
    // The scan sees imports of every form: a `use` through `super::`, a child's name, an
    // inline `crate::` path.
    let [mpi, core, gpu, _] = Crate::all();
    assert!(gpu.graph()["find"].contains("opencl"));
    let graph = core.graph();
    assert!(graph["bitpar::edit"].contains("bitpar::carry"));
    assert!(graph["bitpar::edit::avx2"].contains("bitpar::four_rows"));
    assert!(graph["bitpar"].contains("bitpar::lcs"));
    assert!(graph["bands::advance"].contains("bands::store"));
    assert!(graph["bands::walk"].contains("bands::store"));
    let graph = mpi.graph();
    assert!(graph["engines::bands::walker"].contains("engines::traceback"));
    assert!(graph["engines::diagonal"].contains("engines::traceback"));
    let circle_found = circle(&BTreeMap::from([
        ("a".to_owned(), BTreeSet::from(["b".to_owned()])),
        ("b".to_owned(), BTreeSet::from(["a".to_owned()])),
    ]));
    assert_eq!(circle_found.map(|c| c.len()), Some(3));
}

#[test]
fn the_pure_crates_have_no_mpi() {
    for (dir, package, name) in [
        ("crates/core", "lcs-core", "lcs_core"),
        ("crates/gpu", "lcs-gpu", "lcs_gpu"),
    ] {
        let manifest = std::fs::read_to_string(
            Path::new(env!("CARGO_MANIFEST_DIR"))
                .join(dir)
                .join("Cargo.toml"),
        )
        .unwrap();
        let dependencies = manifest
            .split("[dependencies]")
            .nth(1)
            .expect("the crate has dependencies")
            .split("\n[")
            .next()
            .unwrap();
        for line in dependencies.lines() {
            let dependency = line.split('=').next().unwrap_or_default().trim();
            assert!(
                !dependency.contains("mpi"),
                "{package} depends on {dependency}: it must build without MPI"
            );
        }
        let krate = Crate::read(name, dir);
        for (file, text) in krate.texts() {
            let code = code(text);
            assert!(
                !code.contains("mpi::") && !code.contains("mpi_lcs"),
                "{file} speaks MPI or names the MPI crate"
            );
        }
        let root =
            std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("Cargo.toml"))
                .unwrap();
        assert!(root.contains(&format!("{package} = {{ path = \"{dir}\"")));
    }
}

/// The Python package's crate builds on the pure crate alone: no MPI in its dependencies or
/// its code (its module is named `mpi_lcs`, as the package is).
#[test]
fn the_python_package_has_no_mpi() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("python");
    let manifest = std::fs::read_to_string(root.join("Cargo.toml")).unwrap();
    let dependencies = manifest.split("[dependencies]").nth(1).unwrap();
    let names: Vec<&str> = (dependencies.split("\n[").next().unwrap().lines())
        .filter_map(|l| l.split('=').next().map(str::trim))
        .filter(|n| !n.is_empty())
        .collect();
    assert!(names.contains(&"lcs-core"), "{names:?}");
    assert!(!names.iter().any(|n| n.contains("mpi")), "{names:?}");
    let krate = Crate::read("mpi_lcs_python", "python");
    assert!(krate.files.len() >= 8);
    for (file, text) in krate.texts() {
        assert!(!code(text).contains("mpi::"), "{file} speaks MPI");
    }
}

/// The MPI crate's layers, lowest first: a module may use its own layer and those below.
const LAYERS: [&[&str]; 5] = [
    &[
        "input",
        "error",
        "mem",
        "cgroup",
        "cpus",
        "provenance",
        "progress",
    ],
    &["comm"],
    &["engines"],
    &[
        "report", "paf", "matches", "scores", "npy", "export", "render", "plot", "runs", "table",
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

#[test]
fn modules_use_only_their_layer_and_those_below() {
    let mpi = Crate::read("mpi_lcs", ".");
    for (module, uses) in mpi.graph() {
        if matches!(module.as_str(), "" | "main" | "structure") {
            continue;
        }
        for used in uses.iter().filter(|u| !u.is_empty()) {
            assert!(
                layer(used) <= layer(&module),
                "{module} (layer {}) uses {used} (layer {})",
                layer(&module) + 1,
                layer(used) + 1
            );
        }
    }
}

/// The stages of `render`, in order: what is shown (the models), where it goes and how it is
/// drawn, the page. A stage may use itself and the stages before it.
const RENDER_STAGES: [&str; 3] = ["render::shown", "render::drawn", "render::page"];

fn render_stage(module: &str) -> Option<usize> {
    RENDER_STAGES.iter().position(|stage| {
        module
            .strip_prefix(stage)
            .is_some_and(|rest| rest.is_empty() || rest.starts_with("::"))
    })
}

#[test]
fn render_stages_use_only_those_before_them() {
    let mpi = Crate::read("mpi_lcs", ".");
    let graph = mpi.graph();
    // The scan sees every stage and the uses between them.
    for stage in RENDER_STAGES {
        assert!(graph.contains_key(stage), "no module {stage}");
    }
    assert!(graph["render::drawn::grid"].contains("render::shown::picture"));
    assert!(graph["render::page::html"].contains("render::drawn::svg"));
    assert_eq!(render_stage("render::shown_more"), None);
    for (module, uses) in &graph {
        let Some(at) = render_stage(module) else {
            continue;
        };
        for used in uses {
            let stage = render_stage(used).unwrap_or(0);
            assert!(
                stage <= at,
                "{module} uses {used}: {} may use only {}",
                RENDER_STAGES[at],
                RENDER_STAGES[..=at].join(", ")
            );
        }
    }
}

#[test]
fn only_the_engines_their_messages_and_the_commands_speak_mpi() {
    let mpi = Crate::read("mpi_lcs", ".");
    for (module, (_, text)) in &mpi.files {
        let speaks = code(text).contains("mpi::");
        let top = module.split("::").next().unwrap_or_default();
        assert!(
            !speaks || matches!(top, "engines" | "comm" | "commands"),
            "{module} uses MPI"
        );
    }
}

#[test]
fn only_the_command_line_reads_the_environment() {
    // Whole files, tests included: a test that sets or reads a variable changes what the
    // others see.
    for krate in Crate::all() {
        for (module, (_, text)) in &krate.files {
            // Spelled in two pieces, so that this file does not match itself.
            let reads = ["var", "set_var"]
                .iter()
                .any(|f| text.contains(&format!("env::{f}")));
            let allowed =
                krate.name == "mpi_lcs" && matches!(module.as_str(), "options" | "launch");
            assert!(
                !reads || allowed,
                "{}::{module} reads the environment",
                krate.name
            );
        }
    }
}

#[test]
fn no_file_has_more_than_800_lines_of_code() {
    // Tests beside the code do not count, wherever they stand: they stay with what they test.
    // Every other line does (docs and blank lines too).
    for krate in Crate::all() {
        for (file, text) in krate.texts() {
            let gated = without_tests(&stripped(text));
            let tests = gated
                .lines()
                .zip(text.lines())
                .filter(|(g, t)| g.is_empty() && !t.trim().is_empty());
            let lines = text.lines().count() - tests.count();
            assert!(lines <= 800, "{file}: {lines} lines besides its tests");
        }
    }
}

/// The commands' module only dispatches: each subcommand has a file of its own, and the MPI
/// start-up and abort policy another (`commands/start.rs`).
#[test]
fn the_commands_module_only_dispatches() {
    let [mpi, _, _, _] = Crate::all();
    let (_, text) = &mpi.files["commands"];
    let lines = text.lines().count();
    assert!(lines < 150, "commands/mod.rs: {lines} lines");
    for command in [
        "solve",
        "search",
        "pairs",
        "selftest",
        "reference",
        "schedule",
        "generate",
        "plot",
        "table",
        "start",
    ] {
        let module = format!("commands::{command}");
        assert!(mpi.files.contains_key(&module), "no file for {module}");
    }
    // The start-up is there, not in the dispatch.
    let code = code(text);
    assert!(
        !code.contains("mpi::initialize"),
        "commands/mod.rs starts MPI itself"
    );
}

/// Only tests are cut from a file's code: a test module and a gated helper wherever they
/// stand, the code after them kept, a literal's or a comment's braces not counted.
#[test]
fn tests_are_cut_wherever_they_stand() {
    let text = "use a;\n#[cfg(test)]\nuse b;\nfn c() {\n    \"}\"\n}\n#[cfg(test)]\nmod tests {\n    fn d() { /* { */ }\n}\nfn e() {}\n";
    let code = code(text);
    assert!(code.contains("use a;") && code.contains("fn c()") && code.contains("fn e()"));
    assert!(!code.contains("use b") && !code.contains("fn d") && !code.contains("mod tests"));
    assert_eq!(code.lines().count(), text.lines().count());
}

#[test]
fn markup_is_escaped_in_one_place() {
    // `render::drawn::xml::escape` escapes every text put into SVG or HTML (plotters' text too,
    // through the plots' backend): no other code spells an entity out.
    for krate in Crate::all() {
        for (file, text) in krate.texts() {
            let code = without_tests(text);
            let escapes = ["&amp;", "&lt;", "&quot;"].iter().any(|e| code.contains(e));
            assert!(
                !escapes || file.ends_with("render/drawn/xml.rs"),
                "{file} escapes markup itself"
            );
        }
    }
}

#[test]
fn every_module_opens_with_a_doc() {
    for krate in Crate::all() {
        for (file, text) in krate.texts() {
            assert!(
                text.trim_start().starts_with("//!"),
                "{file} has no module doc"
            );
        }
    }
}

/// Whether a doc line quotes a measured time (`0.7 ns`, `3 µs`, `1.5 ms`, `0.027 s`).
fn quotes_a_timing(line: &str) -> bool {
    let words: Vec<&str> = line.split_whitespace().collect();
    words.windows(2).any(|w| {
        let number = w[0].trim_start_matches(['(', '~']);
        let unit = w[1].trim_end_matches([',', '.', ';', ')', ':']);
        let is_number = !number.is_empty()
            && number.chars().all(|c| c.is_ascii_digit() || c == '.')
            && number.chars().next().is_some_and(|c| c.is_ascii_digit());
        let timed =
            matches!(unit, "ns" | "µs" | "us" | "ms") || (unit == "s" && number.contains('.'));
        is_number && timed
    }) || line.contains(" ns per ")
        || line.contains("this was written on")
}

#[test]
fn doc_comments_quote_no_timing_and_no_outside_document() {
    assert!(quotes_a_timing("/// about 0.7 ns per row-word"));
    assert!(quotes_a_timing("//! 0.035 s dozing, 0.027 s spinning"));
    assert!(!quotes_a_timing("//! O(m + n) steps, 4 bytes per cell"));
    for krate in Crate::all() {
        for (file, text) in krate.texts() {
            for (at, line) in text.lines().enumerate() {
                let doc = line.trim_start();
                if !(doc.starts_with("//!") || doc.starts_with("///")) {
                    continue;
                }
                assert!(
                    !quotes_a_timing(doc),
                    "{file}:{}: a measured timing in a doc comment (figures live in results/): {doc}",
                    at + 1
                );
                for outside in ["DESIGN", "seeds/", "seed 00"] {
                    assert!(
                        !doc.contains(outside),
                        "{file}:{}: a doc comment refers to a document outside the repository: {doc}",
                        at + 1
                    );
                }
            }
        }
    }
}

#[test]
fn the_readme_map_names_only_what_exists() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    let layout = readme
        .split("## Layout")
        .nth(1)
        .expect("the README has a Layout section");
    let block = layout
        .split("```text")
        .nth(1)
        .and_then(|b| b.split("```").next())
        .expect("the Layout section draws the tree in a text block");
    // A line names its paths before the first two spaces (`a.rs, b.rs`), each under the
    // nearest less indented directory above it.
    let mut named = 0;
    let mut parents: Vec<(usize, String)> = Vec::new();
    for line in block.lines() {
        let indent = line.len() - line.trim_start().len();
        let column = line.trim_start().split("  ").next().unwrap_or_default();
        let is_path = |p: &str| !p.contains(' ') && (p.contains('/') || p.ends_with(".rs"));
        if column.is_empty() || !column.split(", ").all(is_path) {
            continue;
        }
        parents.retain(|(at, _)| *at < indent);
        let parent = parents
            .last()
            .map(|(_, dir)| dir.clone())
            .unwrap_or_default();
        for path in column.split(", ") {
            let path = format!("{parent}{path}");
            assert!(
                root.join(&path).exists(),
                "the README's layout names {path}, which does not exist"
            );
            named += 1;
            if path.ends_with('/') {
                parents.push((indent, path));
            }
        }
    }
    assert!(named >= 10, "the layout names {named} paths");
    let [mpi, core, _, _] = Crate::all();
    assert!(mpi.src.ends_with("src") && core.src.ends_with("src"));
}
