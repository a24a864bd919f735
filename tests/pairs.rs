//! `pairs`: every value of every P is a plain O(mn) DP's, as a TSV and as a `.npy` matrix
//! (parsed here), QUERIES x TARGETS and all against all, with and without bounds, on random
//! sets whose lengths reach every kernel (lanes of every width, lanes of several words, the
//! band, the rows) and hold empty sequences; names from FASTA headers and line numbers; the
//! report, its predicted messages and its result set; and every bad input refused with one
//! message, a documented exit status and nothing written. Small inputs, launches side by side.

use std::path::{Path, PathBuf};

use crate::util::{self, args, assert_refused_writing_nothing, Dir, Rng, Run};

impl Rng {
    /// `p` with up to `edits` random substitutions, insertions and deletions.
    fn edited(&mut self, p: &[u8], edits: usize) -> Vec<u8> {
        let mut copy = p.to_vec();
        for _ in 0..self.below(edits + 1) {
            let at = self.below(copy.len() + 1);
            match self.below(3) {
                0 if at < copy.len() => copy[at] = b"ACGT"[self.below(4)],
                1 => copy.insert(at, b"ACGT"[self.below(4)]),
                _ if at < copy.len() => {
                    copy.remove(at);
                }
                _ => {}
            }
        }
        copy
    }
}

/// The plain DPs: the edit distance (unit costs) and the LCS length.
fn plain_value(lcs: bool, a: &[u8], b: &[u8]) -> u32 {
    let mut row: Vec<u32> = match lcs {
        true => vec![0; b.len() + 1],
        false => (0..=b.len() as u32).collect(),
    };
    for (i, &x) in a.iter().enumerate() {
        let mut diag = row[0];
        if !lcs {
            row[0] = i as u32 + 1;
        }
        for (j, &y) in b.iter().enumerate() {
            let up = row[j + 1];
            row[j + 1] = match (lcs, x == y) {
                (true, true) => diag + 1,
                (true, false) => up.max(row[j]),
                (false, true) => diag,
                (false, false) => 1 + diag.min(up).min(row[j]),
            };
            diag = up;
        }
    }
    row[b.len()]
}

/// A set of `count` sequences whose lengths reach every kernel: empty ones, 8-, 16- and 32-bit
/// lanes, 64-bit lanes of one to several words, and longer than the lanes (the rows); every
/// third a near copy of a common sequence, so that bounds pass.
fn set(rng: &mut Rng, count: usize, common: &[u8]) -> Vec<Vec<u8>> {
    (0..count)
        .map(|i| {
            let len = [0, 5, 12, 30, 50, 64, 100, 140, 200, 560][rng.below(10)];
            match i % 3 {
                0 => rng.edited(&common[..len], 6),
                _ => rng.bytes(len),
            }
        })
        .collect()
}

/// One sequence per line (an empty line an empty sequence).
fn lines(seqs: &[Vec<u8>]) -> Vec<u8> {
    seqs.iter()
        .flat_map(|s| s.iter().copied().chain([b'\n']))
        .collect()
}

/// FASTA, records named `NAME<i>` (every fifth header empty: named by its number), sequences
/// in lines of `width`.
fn fasta(seqs: &[Vec<u8>], name: &str, width: usize) -> Vec<u8> {
    let mut out = Vec::new();
    for (i, s) in seqs.iter().enumerate() {
        match i % 5 {
            4 => out.extend(b">\n"),
            _ => out.extend(format!(">{name}{i} some description\r\n").bytes()),
        }
        for line in s.chunks(width) {
            out.extend_from_slice(line);
            out.extend_from_slice(b"\r\n");
        }
    }
    out
}

/// The name the TSV gives sequence `i` of a file (see [`fasta`]).
fn name(fasta_name: Option<&str>, i: usize) -> String {
    match fasta_name {
        Some(n) if i % 5 != 4 => format!("{n}{i}"),
        _ => (i + 1).to_string(),
    }
}

/// A `.npy` file's shape and values, parsed as NumPy reads it: magic, version 1.0, a header
/// dict that says `<u4` in C order, the data aligned to 64 bytes.
fn npy(path: &Path) -> (usize, usize, Vec<u32>) {
    let bytes = std::fs::read(path).unwrap();
    assert_eq!(&bytes[..6], b"\x93NUMPY", "magic");
    assert_eq!(&bytes[6..8], &[1, 0], "version 1.0");
    let len = u16::from_le_bytes([bytes[8], bytes[9]]) as usize;
    assert_eq!((10 + len) % 64, 0, "data aligned");
    let header = std::str::from_utf8(&bytes[10..10 + len]).unwrap();
    assert!(header.ends_with('\n'), "{header:?}");
    assert!(header.contains("'descr': '<u4'"), "{header}");
    assert!(header.contains("'fortran_order': False"), "{header}");
    let shape = header.split("'shape': (").nth(1).unwrap();
    let shape = shape.split(')').next().unwrap();
    let dims: Vec<usize> = shape
        .split(',')
        .filter(|d| !d.trim().is_empty())
        .map(|d| d.trim().parse().unwrap())
        .collect();
    let data: Vec<u32> = bytes[10 + len..]
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    assert_eq!(data.len(), dims[0] * dims[1], "{dims:?}");
    (dims[0], dims[1], data)
}

/// The case a launch checks: the problem, its bound, .npy or TSV, all against all or not.
#[derive(Debug, Clone, Copy)]
struct Case {
    ranks: usize,
    lcs: bool,
    bound: Option<usize>,
    npy: bool,
    all: bool,
}

/// 1 to 4 ranks, both problems, bounds and none, TSV and .npy, QUERIES x TARGETS (plain and
/// FASTA) and all against all: every value is the plain DP's, and with a bound the TSV lists
/// exactly the pairs that pass it (the .npy holds `K + 1`, or 0, for the others).
#[test]
fn every_rank_count_gives_the_plain_dp_values() {
    let mut rng = Rng(0x5eed_0028);
    let dir = Dir::new();
    let common = rng.bytes(600);
    let queries = set(&mut rng, 36, &common);
    let targets = set(&mut rng, 22, &common);
    let q_file = dir.file("q.txt", &lines(&queries));
    let t_file = dir.file("t.fa", &fasta(&targets, "t", 37));
    let qa_file = dir.file("qa.fa", &fasta(&queries, "s", 60));
    let mut cases = Vec::new();
    for ranks in 1..=4 {
        for (lcs, bound) in [
            (false, None),
            (false, Some(12)),
            (true, None),
            (true, Some(40)),
        ] {
            for (npy, all) in [(true, false), (false, false), (ranks % 2 == 0, true)] {
                cases.push(Case {
                    ranks,
                    lcs,
                    bound,
                    npy,
                    all,
                });
            }
        }
    }
    let jobs: Vec<util::Task<'_, (Run, PathBuf)>> = cases
        .iter()
        .enumerate()
        .map(|(n, case)| {
            let (q, t, dir) = (&q_file, &t_file, &dir);
            let qa = &qa_file;
            Box::new(move || {
                let out = dir.path(&format!("out{n}.{}", if case.npy { "npy" } else { "tsv" }));
                let mut a = match case.all {
                    true => args(&[&"pairs", qa]),
                    false => args(&[&"pairs", q, t]),
                };
                if case.lcs {
                    a.extend(args(&[&"--problem", &"lcs"]));
                }
                if let Some(b) = case.bound {
                    let flag = if case.lcs {
                        "--min-length"
                    } else {
                        "--max-edits"
                    };
                    a.extend(args(&[&flag, &b.to_string()]));
                }
                a.extend(args(&[&"--out", &out]));
                (util::mpirun(case.ranks, &a), out)
            }) as util::Task<'_, (Run, PathBuf)>
        })
        .collect();
    let value = |lcs: bool, a: &[u8], b: &[u8]| plain_value(lcs, a, b);
    let mut exact = std::collections::HashMap::new();
    for ((case, (run, out)), n) in cases.iter().zip(util::parallel(4, jobs)).zip(0..) {
        let run = run.ok();
        assert!(run.stdout.contains("pairs"), "the summary: {}", run.stdout);
        let scanned = if case.all { &queries } else { &targets };
        let passes = |v: u32| match (case.lcs, case.bound) {
            (_, None) => true,
            (false, Some(k)) => v as usize <= k,
            (true, Some(l)) => v as usize >= l,
        };
        let cut = |v: u32| match (passes(v), case.lcs, case.bound) {
            (true, _, _) => v,
            (false, false, Some(k)) => k as u32 + 1,
            (false, _, _) => 0,
        };
        let mut want = |a: usize, b: usize| -> u32 {
            *exact
                .entry((case.lcs, case.all, a, b))
                .or_insert_with(|| value(case.lcs, &queries[a], &scanned[b]))
        };
        if case.npy {
            let (rows, cols, data) = npy(&out);
            assert_eq!((rows, cols), (queries.len(), scanned.len()), "{case:?}");
            for a in 0..rows {
                for b in 0..cols {
                    let expected = match case.all && a == b {
                        true => 0,
                        false => cut(want(a, b)),
                    };
                    assert_eq!(data[a * cols + b], expected, "({a}, {b}) {case:?}");
                }
            }
        } else {
            let header = if case.lcs { "lcs_length" } else { "distance" };
            let mut expected = format!("query\ttarget\t{header}\n");
            let mut listed = 0;
            for a in 0..queries.len() {
                let first = if case.all { a + 1 } else { 0 };
                for b in first..scanned.len() {
                    let v = want(a, b);
                    if passes(v) {
                        let (qn, tn) = match case.all {
                            true => (name(Some("s"), a), name(Some("s"), b)),
                            false => (name(None, a), name(Some("t"), b)),
                        };
                        expected += &format!("{qn}\t{tn}\t{v}\n");
                        listed += 1;
                    }
                }
            }
            assert!(listed > 3, "the bound passes some pairs: {case:?}");
            let got = std::fs::read_to_string(&out).unwrap();
            assert_eq!(got, expected, "{case:?} (launch {n})");
        }
    }
}

/// A hand-made case: names from FASTA headers (the first word; an empty header its number)
/// and line numbers, an empty line and an empty record as empty sequences (distance: the
/// other's length), the TSV on standard output without `--out`.
#[test]
fn names_and_empty_sequences() {
    let dir = Dir::new();
    let q = dir.file("q.txt", b"kitten\n\nflaw\n");
    let t = dir.file("t.fa", b">first sequence\nsitt\ning\n>\n>third\nlawn\n");
    let run = util::mpirun(2, &args(&[&"pairs", &q, &t])).ok();
    assert_eq!(
        run.stdout,
        "query\ttarget\tdistance\n\
         1\tfirst\t3\n1\t2\t6\n1\tthird\t5\n\
         2\tfirst\t7\n2\t2\t0\n2\tthird\t4\n\
         3\tfirst\t7\n3\t2\t4\n3\tthird\t2\n"
    );
    let all = util::plain(&args(&[&"pairs", &q, &"--problem", &"lcs"])).ok();
    assert_eq!(
        all.stdout,
        "query\ttarget\tlcs_length\n1\t2\t0\n1\t3\t0\n2\t3\t0\n"
    );
    let within = util::plain(&args(&[&"pairs", &q, &t, &"-k", &"3"])).ok();
    assert_eq!(
        within.stdout,
        "query\ttarget\tdistance\n1\tfirst\t3\n2\t2\t0\n3\tthird\t2\n"
    );
}

/// The report: the pairs and their kernels, each rank's pairs and seconds, the balance, the
/// messages (a dense matrix: as predicted, one per rank other than 0); the result set of pairs
/// runs, which `table` refuses by name and a solve run will not append to.
#[test]
fn the_report_its_messages_and_its_result_set() {
    let mut rng = Rng(99);
    let dir = Dir::new();
    let common = rng.bytes(600);
    let q = dir.file("q.txt", &lines(&set(&mut rng, 50, &common)));
    let t = dir.file("t.txt", &lines(&set(&mut rng, 40, &common)));
    let (json, csv, out) = (dir.path("r.json"), dir.path("runs.csv"), dir.path("m.npy"));
    for ranks in [3, 1] {
        util::mpirun(
            ranks,
            &args(&[
                &"pairs",
                &q,
                &t,
                &"--out",
                &out,
                &"--json",
                &json,
                &"--append-csv",
                &csv,
            ]),
        )
        .ok();
    }
    let three = util::mpirun(3, &args(&[&"pairs", &q, &t, &"--json", &json])).ok();
    assert!(three.stdout.starts_with("query\ttarget\tdistance\n"));
    let report = util::json(&json);
    assert_eq!(report["command"], "pairs", "{report:#}");
    assert_eq!(report["problem"], "edit");
    assert_eq!(report["pairs"], 2000);
    assert_eq!(report["pairs_within"], 2000);
    assert_eq!(report["queries"]["sequences"], 50);
    assert_eq!(report["targets"]["sequences"], 40);
    assert_eq!(report["messages"]["control"], 2);
    assert_eq!(report["predicted_messages"], 2);
    let ranks = report["per_rank"].as_array().unwrap();
    assert_eq!(ranks.len(), 3);
    let computed: u64 = ranks.iter().map(|r| r["pairs"].as_u64().unwrap()).sum();
    assert_eq!(computed, report["pairs_computed"].as_u64().unwrap());
    assert!(report["balance"].as_f64().unwrap() >= 1.0);
    assert!(report["word_steps"].as_u64().unwrap() > 0);
    assert!(ranks
        .iter()
        .all(|r| r["seconds_compute"].as_f64().unwrap() >= 0.0));
    let table = util::csv(&csv);
    assert_eq!(util::column(&table, "command"), ["pairs", "pairs"]);
    assert_eq!(util::column(&table, "ranks"), ["3", "1"]);
    assert_eq!(util::column(&table, "pairs"), ["2000", "2000"]);
    let refused = util::plain(&args(&[&"table", &csv]));
    assert_eq!(refused.status.code(), Some(3), "{refused:#?}");
    assert!(
        refused.stderr.contains("holds pairs runs"),
        "{}",
        refused.stderr
    );
    let plots = dir.path("plots");
    let refused = util::plain(&args(&[&"plot", &csv, &"--out", &plots]));
    assert_eq!(refused.status.code(), Some(3), "{refused:#?}");
    assert!(
        refused.stderr.contains("holds pairs runs"),
        "{}",
        refused.stderr
    );
    let input = dir.input("pair.txt", b"ACGT", b"AGT");
    let solve = util::plain(&args(&[&"solve", &input, &"--append-csv", &csv]));
    assert_eq!(solve.status.code(), Some(5), "{solve:#?}");
    assert!(
        solve.stderr.contains("is a result set of pairs runs"),
        "{}",
        solve.stderr
    );
    // A bound with a TSV: the pairs within it, as many messages as ranks but rank 0, not
    // predicted.
    util::mpirun(
        3,
        &args(&[
            &"pairs",
            &q,
            &t,
            &"-k",
            &"8",
            &"--json",
            &json,
            &"--out",
            &dir.path("k.tsv"),
        ]),
    )
    .ok();
    let report = util::json(&json);
    assert_eq!(report["max_edits"], 8);
    assert!(report["predicted_messages"].is_null(), "{report:#}");
    assert_eq!(report["messages"]["control"], 2);
    let listed = std::fs::read_to_string(dir.path("k.tsv"))
        .unwrap()
        .lines()
        .count()
        - 1;
    assert_eq!(report["pairs_within"].as_u64().unwrap(), listed as u64);
}

/// Every compilation of the kernels this CPU runs gives the same TSV, and the report names it.
#[test]
fn every_compilation_gives_the_same_pairs() {
    #[cfg(target_arch = "x86_64")]
    let avx2 = std::arch::is_x86_feature_detected!("avx2");
    #[cfg(not(target_arch = "x86_64"))]
    let avx2 = false;
    let mut rng = Rng(7);
    let dir = Dir::new();
    let common = rng.bytes(600);
    let q = dir.file("q.txt", &lines(&set(&mut rng, 30, &common)));
    let json = dir.path("r.json");
    let default = util::mpirun(2, &args(&[&"pairs", &q, &"-k", &"9"])).ok();
    for simd in ["avx2", "portable"] {
        if simd == "avx2" && !avx2 {
            continue;
        }
        let run = util::mpirun_env(
            2,
            &args(&[&"pairs", &q, &"-k", &"9", &"--json", &json]),
            &[("MPI_LCS_SIMD", simd)],
        )
        .ok();
        assert_eq!(run.stdout, default.stdout, "{simd}");
        assert_eq!(util::json(&json)["kernel"], simd);
    }
}

/// Bad inputs under two ranks: each refused with one message and its exit status, every rank
/// ended, nothing written.
#[test]
fn bad_inputs_are_refused_with_one_message_and_nothing_written() {
    let dir = Dir::new();
    let good = dir.file("q.txt", b"ACGTAC\nGGTTAA\n");
    let empty = dir.file("empty.txt", b"");
    let binary = dir.file("binary.txt", b"ACGT\n\x00\x01\x02\n");
    let many = dir.file("many.txt", &b"A\n".repeat(6000));
    let subdir = dir.path("sub");
    std::fs::create_dir(&subdir).unwrap();
    let (out, json) = (dir.path("o.tsv"), dir.path("o.json"));
    let cases: Vec<(Vec<std::ffi::OsString>, i32, &str, Vec<&Path>)> = vec![
        (
            args(&[&empty]),
            3,
            "empty file: no sequence",
            vec![&out, &json],
        ),
        (
            args(&[&good, &binary]),
            3,
            "NUL byte at offset 5",
            vec![&out, &json],
        ),
        (
            args(&[&good, &subdir]),
            3,
            "is a directory",
            vec![&out, &json],
        ),
        (
            args(&[&good, &dir.path("none")]),
            3,
            "not found",
            vec![&out, &json],
        ),
        (
            args(&[&"-", &"-"]),
            2,
            "both standard input",
            vec![&out, &json],
        ),
        (
            args(&[&good, &"--problem", &"lcs", &"-k", &"2"]),
            2,
            "--max-edits belongs",
            vec![],
        ),
        (
            args(&[&good, &"--min-length", &"2"]),
            2,
            "--min-length belongs",
            vec![],
        ),
        (args(&[&good, &"-k", &"-2"]), 2, "0 or more", vec![]),
        (
            args(&[&many, &"--memory-limit", &"64M"]),
            4,
            "not enough memory",
            vec![&out, &json],
        ),
    ];
    // The same file as an output and an input: refused before anything is read.
    let same_target = args(&[&good, &good.with_file_name("q.txt"), &"--out", &good]);
    let same_json = args(&[&good, &"--json", &good]);
    let mut jobs: Vec<util::Task<'_, Run>> = Vec::new();
    for (extra, _, _, outputs) in &cases {
        let (out, json) = (&out, &json);
        jobs.push(Box::new(move || {
            let mut a = args(&[&"pairs"]);
            a.extend(extra.iter().cloned());
            if !outputs.is_empty() {
                a.extend(args(&[&"--out", out, &"--json", json]));
            }
            util::mpirun(2, &a)
        }));
    }
    for extra in [&same_target, &same_json] {
        jobs.push(Box::new(move || {
            let mut a = args(&[&"pairs"]);
            a.extend(extra.iter().cloned());
            util::mpirun(2, &a)
        }));
    }
    let runs = util::parallel(3, jobs);
    for ((_, code, problem, outputs), run) in cases.iter().zip(&runs) {
        assert_refused_writing_nothing(run, *code, problem, outputs);
    }
    for run in &runs[cases.len()..] {
        assert_refused_writing_nothing(run, 5, "is the input file", &[]);
    }
    assert_eq!(std::fs::read(&good).unwrap(), b"ACGTAC\nGGTTAA\n");
}

/// The largest memory estimate of a run's ranks, from its report.
fn largest_estimate(json: &Path) -> u64 {
    let report = util::json(json);
    let ranks = report["per_rank"].as_array().unwrap();
    ranks
        .iter()
        .map(|r| r["memory_estimate_bytes"].as_u64().unwrap())
        .max()
        .unwrap()
}

/// Pairs within a bound spilled to disk: each rank keeps what its limit leaves (a few MiB
/// here) and writes the rest in sorted runs; rank 0 merges them back. The TSV is the one a run
/// that kept everything wrote, byte for byte, at every P; the report says who spilled.
#[test]
fn pairs_within_a_bound_beyond_the_limit_are_spilled_and_come_back_in_order() {
    let mut rng = Rng(38);
    let dir = Dir::new();
    // Near copies of one read: about two million pairs within 4 edits, in every kernel's order.
    let read = rng.bytes(90);
    let reads: Vec<Vec<u8>> = (0..2000).map(|_| rng.edited(&read, 3)).collect();
    let q = dir.file("q.txt", &lines(&reads));
    let kept = util::mpirun(1, &args(&[&"pairs", &q, &"-k", &"4"])).ok();
    let listed = kept.stdout.lines().count() - 1;
    assert!(listed > 1_000_000, "{listed} pairs within 4 edits");
    for ranks in [1, 2, 3] {
        let json = dir.path(&format!("r{ranks}.json"));
        util::mpirun(ranks, &args(&[&"pairs", &q, &"-k", &"4", &"--json", &json])).ok();
        // A limit a little above what the ranks need without pairs: a few MiB for them.
        let limit = format!("{}", largest_estimate(&json) + (3 << 20));
        let out = dir.path(&format!("o{ranks}.tsv"));
        let spilled = util::mpirun(
            ranks,
            &args(&[
                &"pairs",
                &q,
                &"-k",
                &"4",
                &"--memory-limit",
                &limit,
                &"--out",
                &out,
                &"--json",
                &json,
            ]),
        )
        .ok();
        assert_eq!(
            std::fs::read_to_string(&out).unwrap(),
            kept.stdout,
            "{ranks} ranks"
        );
        assert!(
            spilled.stdout.contains("spilled to disk: p0 "),
            "{}",
            spilled.stdout
        );
        let report = util::json(&json);
        let per_rank = report["per_rank"].as_array().unwrap();
        let found: u64 = per_rank
            .iter()
            .map(|r| r["passing"].as_u64().unwrap())
            .sum();
        assert_eq!(found, listed as u64, "{ranks} ranks");
        assert_eq!(report["pairs_within"].as_u64(), Some(listed as u64));
        let spilled: Vec<u64> = (per_rank.iter())
            .map(|r| r["spilled"].as_u64().unwrap())
            .collect();
        // Rank 0 spills what it receives too; the others what they found.
        assert!(spilled.iter().all(|&s| s > 0), "{ranks} ranks: {spilled:?}");
    }
}

/// 30,000 copies of one read, `-k 0` under `ulimit -v 2G`: 450 million pairs within the bound,
/// and rank 0 grew its list of them until an allocation failed (SIGABRT, exit 134, a
/// backtrace). The address-space limit now caps the memory limit, so the pairs go to disk
/// beyond it: 4,000 copies (8 million pairs) under a 200 MiB cap, alone and on two ranks. The
/// `.npy` matrix of the same pairs, which cannot be spilled, is refused before any work.
#[test]
fn pairs_under_an_address_space_cap_are_spilled_never_aborted() {
    let dir = Dir::new();
    let q = dir.file("q.txt", &b"ACGTTGCAAGGCTTAACGGA\n".repeat(4000));
    let cap = 200 << 20;
    for ranks in [1, 2] {
        let (out, json) = (dir.path("o.tsv"), dir.path("r.json"));
        let a = args(&[&"pairs", &q, &"-k", &"0", &"--out", &out, &"--json", &json]);
        let cmd = match ranks {
            1 => util::plain_command(&a),
            _ => util::mpirun_command(ranks, &a, &[]),
        };
        let run = util::run_with_timeout(util::capped(cmd, cap)).ok();
        assert!(
            run.stdout.contains("7,998,000 pairs within 0 edits"),
            "{}",
            run.stdout
        );
        let report = util::json(&json);
        assert_eq!(report["pairs_within"].as_u64(), Some(4000 * 3999 / 2));
        let spilled: u64 = (report["per_rank"].as_array().unwrap().iter())
            .map(|r| r["spilled"].as_u64().unwrap())
            .sum();
        assert!(spilled > 0, "{ranks} ranks: nothing spilled under the cap");
        // Every pair i < j once, in order, each at distance 0.
        let text = std::fs::read_to_string(&out).unwrap();
        let mut lines = text.lines();
        assert_eq!(lines.next(), Some("query\ttarget\tdistance"));
        let mut count = 0u64;
        let mut last = (0u32, 0u32);
        for line in lines {
            let mut f = line.split('\t');
            let a: u32 = f.next().unwrap().parse().unwrap();
            let b: u32 = f.next().unwrap().parse().unwrap();
            assert_eq!(f.next(), Some("0"));
            assert!(a < b && (a, b) > last, "{line} after {last:?}");
            last = (a, b);
            count += 1;
        }
        assert_eq!(count, 4000 * 3999 / 2);
        std::fs::remove_file(&out).unwrap();
    }
    let npy = dir.path("m.npy");
    let many = dir.file("many.txt", &b"ACGTTGCAAGGCTTAACGGA\n".repeat(8000));
    let run = util::run_with_timeout(util::capped(
        util::plain_command(&args(&[&"pairs", &many, &many, &"--out", &npy])),
        cap,
    ));
    let problem = "not enough memory: rank 0 keeps every value of 8000 x 8000";
    assert_refused_writing_nothing(&run, 4, problem, &[&npy]);
}

/// A rank that cannot spill (its directory is not one) stops the run with exit 4, saying how
/// many pairs it found and why the disk could not have them; nothing is written.
#[test]
fn a_spill_that_fails_is_refused_with_the_count_found() {
    let mut rng = Rng(5);
    let dir = Dir::new();
    let read = rng.bytes(90);
    let reads: Vec<Vec<u8>> = (0..1500).map(|_| rng.edited(&read, 3)).collect();
    let q = dir.file("q.txt", &lines(&reads));
    let json = dir.path("r.json");
    util::plain(&args(&[&"pairs", &q, &"-k", &"4", &"--json", &json])).ok();
    let limit = format!("{}", largest_estimate(&json) + (3 << 20));
    let not_a_dir = dir.file("file", b"");
    let out = dir.path("o.tsv");
    let mut cmd = util::plain_command(&args(&[
        &"pairs",
        &q,
        &"-k",
        &"4",
        &"--memory-limit",
        &limit,
        &"--out",
        &out,
    ]));
    cmd.env("TMPDIR", not_a_dir.join("spill"));
    let run = util::run_with_timeout(cmd);
    assert_refused_writing_nothing(
        &run,
        4,
        "pairs within the bound found, more than the",
        &[&out],
    );
    assert!(run.stderr.contains("spilling them to"), "{}", run.stderr);
}
