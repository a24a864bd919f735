//! `--problem edit`: the edit distance and its alignment from every engine, store and rank
//! count, the same as the sequential reference's and a plain O(mn) DP written here; the
//! CIGAR checked by applying it; the PAF line; and the CIGAR every LCS run now carries.

use std::path::Path;

use serde_json::Value;

use crate::util::{self, args, Dir};

/// The edit distance by the plain DP: the oracle of these tests.
fn plain_distance(a: &[u8], b: &[u8]) -> usize {
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, &x) in a.iter().enumerate() {
        let mut cur = vec![i + 1; b.len() + 1];
        for (j, &y) in b.iter().enumerate() {
            cur[j + 1] = if x == y {
                prev[j]
            } else {
                1 + prev[j].min(prev[j + 1]).min(cur[j])
            };
        }
        prev = cur;
    }
    prev[b.len()]
}

/// The target the CIGAR makes of the query, checking every operation against the bytes:
/// `=` must match, `X` must differ.
fn apply(cigar: &str, query: &[u8], target: &[u8]) -> Vec<u8> {
    let (mut q, mut t, mut count) = (0, 0, 0usize);
    let mut out = Vec::new();
    for c in cigar.chars() {
        if let Some(d) = c.to_digit(10) {
            count = count * 10 + d as usize;
            continue;
        }
        assert!(count > 0, "an operation without a count in {cigar}");
        for _ in 0..count {
            match c {
                '=' => {
                    assert_eq!(query[q], target[t], "= over unequal bytes in {cigar}");
                    out.push(query[q]);
                    (q, t) = (q + 1, t + 1);
                }
                'X' => {
                    assert_ne!(query[q], target[t], "X over equal bytes in {cigar}");
                    out.push(target[t]);
                    (q, t) = (q + 1, t + 1);
                }
                'I' => q += 1,
                'D' => {
                    out.push(target[t]);
                    t += 1;
                }
                other => panic!("operation {other} in {cigar}"),
            }
        }
        count = 0;
    }
    assert_eq!(q, query.len(), "{cigar} does not use up the query");
    out
}

/// The cost of a CIGAR: every operation that is not `=`.
fn edits(cigar: &str) -> usize {
    let (mut total, mut count) = (0, 0usize);
    for c in cigar.chars() {
        match c.to_digit(10) {
            Some(d) => count = count * 10 + d as usize,
            None => {
                if c != '=' {
                    total += count;
                }
                count = 0;
            }
        }
    }
    total
}

/// Hundreds of pairs (the edge shapes, random and near-identical pairs) and the repository's
/// inputs, both problems, through both stores of the diagonal engine on 1, 2, 3 and 5 ranks
/// and every batch and checkpoint setting of the bands engine: rank 0 compares every path with
/// the reference's, move for move, and every count with the prediction.
#[test]
fn every_engine_store_and_rank_count_gives_the_references_alignment() {
    let inputs = ["small.txt", "medium.txt"].map(util::repo_input);
    let settings: [&[&str]; 3] = [
        &["--store", "dense"],
        &["--store", "hash"],
        &["--engine", "bands", "--sweep"],
    ];
    let jobs: Vec<util::Task<'_, (usize, usize, util::Run)>> = [1, 2, 3, 5]
        .into_iter()
        .flat_map(|p| (0..settings.len()).map(move |s| (p, s)))
        .map(|(p, s)| {
            let (inputs, setting) = (&inputs, settings[s]);
            Box::new(move || {
                let mut a = args(&[&"self-test", &"--problem", &"edit", &"--cases", &"30"]);
                a.extend(setting.iter().map(Into::into));
                for input in inputs {
                    a.extend(args(&[&"--file", input]));
                }
                (p, s, util::mpirun(p, &a))
            }) as Box<_>
        })
        .collect();
    for (p, s, run) in util::parallel(3, jobs) {
        let run = run.ok();
        assert!(
            run.stdout
                .contains(&format!("pairs (edit) on {}", util::ranks(p)))
                && run.stdout.contains(": 0 failed"),
            "{p} ranks {:?}:\n{}",
            settings[s],
            run.stdout
        );
    }
}

/// A solve's report, run through `mpirun`.
fn solved(dir: &Dir, ranks: usize, input: &Path, extra: &[&str]) -> Value {
    let out = dir.path(&format!("{ranks}-{}.json", extra.join("_")));
    let extra: Vec<&std::ffi::OsStr> = extra.iter().map(|s| s.as_ref()).collect();
    util::solve(ranks, input, &out, &extra, &[]).ok();
    util::json(&out)
}

#[test]
fn the_distance_and_cigar_agree_everywhere_and_with_a_plain_dp() {
    let dir = Dir::new();
    // A FASTA pair whose first record is the longer: the rows are swapped, the CIGAR is not.
    let query = b"GATTACAGATTACAGGGTTTAACCGATTACATTTGACAGATTAGACA".to_vec();
    let target = b"GATCACAGTTACAGGGTTAACCGGATTACATTTGCAGATTAGAC".to_vec();
    let input = dir.file(
        "pair.fa",
        &[
            b">first sequence\n".as_slice(),
            &query,
            b"\n>second\n",
            &target,
            b"\n",
        ]
        .concat(),
    );
    let want = plain_distance(&query, &target);
    let reference = dir.path("reference.json");
    let paf = dir.path("reference.paf");
    util::plain(&args(&[
        &"reference",
        &input,
        &"--problem",
        &"edit",
        &"--json",
        &reference,
        &"--paf",
        &paf,
    ]))
    .ok();
    let reference = util::json(&reference);
    assert_eq!(reference["problem"], "edit");
    assert_eq!(reference["distance"], want as u64);
    assert_eq!(reference["swapped"], true);
    // Present and null, as docs/report.md says: the key was missing.
    assert_eq!(reference.get("lcs"), Some(&serde_json::Value::Null));
    assert_eq!(reference.get("lcs_length"), Some(&serde_json::Value::Null));
    let cigar = reference["cigar"].as_str().unwrap().to_owned();
    assert_eq!(apply(&cigar, &query, &target), target, "{cigar}");
    assert_eq!(edits(&cigar), want);

    let line = std::fs::read_to_string(&paf).unwrap();
    let columns: Vec<&str> = line.trim_end_matches('\n').split('\t').collect();
    assert_eq!(line.lines().count(), 1);
    let (q, t) = (query.len().to_string(), target.len().to_string());
    assert_eq!(
        columns[..9],
        ["first", &q, "0", &q, "+", "second", &t, "0", &t]
    );
    assert_eq!(columns[11], "255");
    assert_eq!(columns[12], format!("NM:i:{want}"));
    assert_eq!(columns[13], format!("cg:Z:{cigar}"));
    let matches = cigar.matches('=').count();
    assert!(matches > 0);

    for (ranks, extra) in [
        (1, &["--store", "dense"][..]),
        (3, &["--store", "dense"]),
        (2, &["--store", "hash"]),
        (1, &["--engine", "bands"]),
        (
            2,
            &["--engine", "bands", "--batch", "5", "--checkpoint", "7"],
        ),
        (3, &["--engine", "bands", "--checkpoint", "full"]),
    ] {
        let mut a = vec!["--problem", "edit"];
        a.extend(extra);
        let got = solved(&dir, ranks, &input, &a);
        assert_eq!(got["problem"], "edit", "{ranks} {extra:?}");
        assert_eq!(got["distance"], want as u64, "{ranks} {extra:?}");
        assert_eq!(got["cigar"], cigar.as_str(), "{ranks} {extra:?}");
        assert_eq!(
            got["messages"]["boundary"], got["predicted"]["boundary"],
            "{ranks} {extra:?}"
        );
    }
}

#[test]
fn the_summary_shows_the_distance_the_cigar_and_the_alignment() {
    let dir = Dir::new();
    let input = dir.input("kitten.txt", b"kitten", b"sitting");
    let run = util::mpirun(2, &args(&[&"solve", &input, &"--problem", &"edit"])).ok();
    let out = &run.stdout;
    assert!(out.contains("edit distance: 3\n"), "{out}");
    assert!(out.contains("CIGAR: 1X3=1X1=1D\n"), "{out}");
    assert!(
        out.contains("  kitten-\n  .|||.| \n  sitting\n"),
        "the three lines of the alignment:\n{out}"
    );
    assert!(!out.contains("LCS"), "{out}");
    // The distance alone, in O(n / 64) memory.
    let alone = util::plain(&args(&[
        &"reference",
        &input,
        &"--problem",
        &"edit",
        &"--length-only",
    ]))
    .ok();
    assert_eq!(alone.stdout, "edit distance: 3\n");
}

#[test]
fn lcs_runs_carry_a_cigar_whose_matches_spell_the_lcs() {
    let dir = Dir::new();
    let input = util::repo_input("medium.txt");
    for (ranks, extra) in [(2, &["--store", "dense"][..]), (3, &["--engine", "bands"])] {
        let got = solved(&dir, ranks, &input, extra);
        assert_eq!(got["problem"], "lcs");
        assert!(got["distance"].is_null());
        let cigar = got["cigar"].as_str().unwrap();
        assert!(!cigar.contains('X'), "an LCS alignment has no substitution");
        let text = std::fs::read_to_string(&input).unwrap();
        let mut lines = text.lines();
        let (query, target) = (
            lines.next().unwrap().as_bytes(),
            lines.next().unwrap().as_bytes(),
        );
        assert_eq!(apply(cigar, query, target), target);
        // The = runs, read off the query, spell the LCS.
        let (mut q, mut count, mut spelled) = (0usize, 0usize, Vec::new());
        for c in cigar.chars() {
            match c.to_digit(10) {
                Some(d) => count = count * 10 + d as usize,
                None => {
                    if c == '=' {
                        spelled.extend_from_slice(&query[q..q + count]);
                    }
                    if c == '=' || c == 'I' {
                        q += count;
                    }
                    count = 0;
                }
            }
        }
        assert_eq!(got["lcs"].as_str().unwrap().as_bytes(), spelled);
        assert_eq!(edits(cigar), query.len() + target.len() - 2 * spelled.len());
    }
}

/// `--paf` wrote `q\xff1` as `q\xef\xbf\xbd1` (U+FFFD): names go out byte for byte, from
/// `solve` on either engine and from `reference`, as `search` writes its records' names.
#[test]
fn paf_names_are_the_headers_bytes_whatever_their_encoding() {
    let dir = Dir::new();
    let input = dir.file(
        "names.fa",
        b">q\xff1 a description\nGATTACAGATTACA\n>t\xfe\x802\nGATCACAGTTACA\n",
    );
    let check = |paf: &Path, what: &str| {
        let line = std::fs::read(paf).unwrap();
        let columns: Vec<&[u8]> = line
            .strip_suffix(b"\n")
            .unwrap_or_else(|| panic!("{what}: no newline"))
            .split(|&b| b == b'\t')
            .collect();
        assert_eq!(columns[0], b"q\xff1", "{what}");
        assert_eq!(columns[5], b"t\xfe\x802", "{what}");
        assert_eq!(columns[1], b"14", "{what}");
    };
    let paf = dir.path("reference.paf");
    util::plain(&args(&[
        &"reference",
        &input,
        &"--problem",
        &"edit",
        &"--paf",
        &paf,
    ]))
    .ok();
    check(&paf, "reference");
    for (ranks, engine) in [(2, "diagonal"), (3, "bands")] {
        let paf = dir.path(&format!("{engine}.paf"));
        let json = dir.path(&format!("{engine}.json"));
        let extra = args(&[&"--engine", &engine, &"--paf", &paf]);
        let extra: Vec<&std::ffi::OsStr> = extra.iter().map(|s| s.as_os_str()).collect();
        util::solve(ranks, &input, &json, &extra, &[]).ok();
        check(&paf, engine);
        // The JSON report stays valid JSON.
        assert_eq!(util::json(&json)["rows"], 13, "{engine}");
    }
}
