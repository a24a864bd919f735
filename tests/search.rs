//! `search`: the TSV of every P is a plain O(mn) semi-global DP's, line for line, on random
//! texts with mutated copies of the patterns planted, some across the places where 2, 3 and
//! 4 ranks cut the text; FASTA records searched apart; the patterns split among ranks when the
//! text is short; and every bad input refused with one message, a documented exit status and
//! nothing written. Small inputs, launches run side by side.

use std::path::{Path, PathBuf};

use crate::util::{self, args, assert_refused_writing_nothing, Dir, Rng, Run};

impl Rng {
    /// `p` with up to `edits` random substitutions, insertions and deletions.
    fn mutated(&mut self, p: &[u8], edits: usize) -> Vec<u8> {
        let mut copy = p.to_vec();
        for _ in 0..self.below(edits + 1) {
            let at = self.below(copy.len());
            match self.below(3) {
                0 => copy[at] = b"ACGT"[self.below(4)],
                1 => copy.insert(at, b"ACGT"[self.below(4)]),
                _ if copy.len() > 1 => {
                    copy.remove(at);
                }
                _ => {}
            }
        }
        copy
    }
}

/// The plain semi-global DP: `D[0][j] = 0`, `D[i][0] = i`; every end `e` in `1..=n` with
/// `D[m][e] <= k`, its start where the search's walk reaches row 0 (a match or
/// `D[i-1][j-1] = D - 1`: diagonally; else `D[i-1][j] = D - 1`: up; else left).
fn plain_matches(p: &[u8], t: &[u8], k: usize) -> Vec<(usize, usize, usize)> {
    plain_matches_by(p, t, k, |a, b| a == b)
}

/// [`plain_matches`] where pattern byte `a` matches text byte `b` when `same(a, b)`.
fn plain_matches_by(
    p: &[u8],
    t: &[u8],
    k: usize,
    same: impl Fn(u8, u8) -> bool,
) -> Vec<(usize, usize, usize)> {
    let (m, n) = (p.len(), t.len());
    let mut d = vec![vec![0usize; n + 1]; m + 1];
    for i in 1..=m {
        d[i][0] = i;
        for j in 1..=n {
            d[i][j] = if same(p[i - 1], t[j - 1]) {
                d[i - 1][j - 1]
            } else {
                1 + d[i - 1][j - 1].min(d[i - 1][j]).min(d[i][j - 1])
            };
        }
    }
    (1..=n)
        .filter(|&e| d[m][e] <= k)
        .map(|e| {
            let (mut i, mut j) = (m, e);
            while i > 0 {
                let here = d[i][j];
                if j > 0 && (same(p[i - 1], t[j - 1]) || d[i - 1][j - 1] + 1 == here) {
                    (i, j) = (i - 1, j - 1);
                } else if d[i - 1][j] + 1 == here {
                    i -= 1;
                } else {
                    j -= 1;
                }
            }
            (j, e, d[m][e])
        })
        .collect()
}

/// The TSV the DP gives for `patterns` over `records` (name, sequence).
fn expected_tsv(patterns: &[Vec<u8>], records: &[(&str, &[u8])], k: usize) -> String {
    let mut out = String::from("pattern\trecord\tstart\tend\tdistance\n");
    for (number, p) in patterns.iter().enumerate() {
        for (name, sequence) in records {
            for (start, end, d) in plain_matches(p, sequence, k) {
                out += &format!("{number}\t{name}\t{start}\t{end}\t{d}\n");
            }
        }
    }
    out
}

/// Patterns of every kernel's class: 5 to 8 bytes (8-bit lanes), to 16, to 32, to 64, and
/// longer than a word; at least 6 bytes, so that k = 5 is below every length.
fn patterns(rng: &mut Rng) -> Vec<Vec<u8>> {
    [6, 8, 13, 16, 27, 32, 45, 64, 90]
        .iter()
        .map(|&m| rng.bytes(m))
        .collect()
}

/// A plain text of `len` bytes with copies of the patterns planted across each place where 2,
/// 3 and 4 ranks cut it (their balanced split of the bytes), exact and mutated in turn, and
/// mutated copies at random places.
fn plain_text(rng: &mut Rng, patterns: &[Vec<u8>], len: usize) -> Vec<u8> {
    let mut text = rng.bytes(len);
    plant(rng, &mut text, patterns);
    text
}

/// Copies of the patterns planted in `text` as [`plain_text`] plants them.
fn plant(rng: &mut Rng, text: &mut [u8], patterns: &[Vec<u8>]) {
    let len = text.len();
    let mut cuts: Vec<usize> = (2..=4)
        .flat_map(|p| (1..p).map(move |k| k * len / p))
        .collect();
    cuts.extend((0..6).map(|_| rng.below(len)));
    for (n, at) in cuts.into_iter().enumerate() {
        let edits = if n % 2 == 0 { 0 } else { 4 };
        let copy = rng.mutated(&patterns[n % patterns.len()], edits);
        let from = at
            .saturating_sub(rng.below(copy.len()))
            .min(len - copy.len());
        text[from..from + copy.len()].copy_from_slice(&copy);
    }
}

fn write_patterns(dir: &Dir, patterns: &[Vec<u8>]) -> PathBuf {
    let lines: Vec<u8> = patterns
        .iter()
        .flat_map(|p| p.iter().copied().chain([b'\n']))
        .collect();
    dir.file("patterns.txt", &lines)
}

fn search(ranks: usize, patterns: &Path, text: &Path, k: usize, extra: &[&str]) -> Run {
    let mut a = args(&[&"search", &patterns, &text, &"--max-edits", &k.to_string()]);
    a.extend(extra.iter().map(Into::into));
    util::mpirun(ranks, &a)
}

/// 1, 2, 3 and 4 ranks, k = 0, 2 and 5, on a plain text with copies across every cut, and a
/// FASTA text of three records with short lines: every TSV is the DP's, line for line.
#[test]
fn every_rank_count_finds_what_the_plain_dp_finds() {
    let mut rng = Rng(0x5eed_0003);
    let dir = Dir::new();
    let patterns = patterns(&mut rng);
    let pattern_file = write_patterns(&dir, &patterns);
    let text = plain_text(&mut rng, &patterns, 3000);
    let plain = dir.file("text.txt", &[&text[..], b"\n"].concat());
    let records: Vec<(String, Vec<u8>)> = (0..3)
        .map(|r| {
            let mut sequence = Vec::new();
            while sequence.len() < 700 {
                let gap = rng.below(40);
                sequence.extend(rng.bytes(gap));
                let which = rng.below(patterns.len());
                let copy = rng.mutated(&patterns[which], 3);
                sequence.extend(copy);
            }
            (format!("rec{r}"), sequence)
        })
        .collect();
    let mut fasta = Vec::new();
    for (name, sequence) in &records {
        fasta.extend(format!(">{name} description\r\n").bytes());
        let width = 1 + rng.below(50);
        for line in sequence.chunks(width) {
            fasta.extend_from_slice(line);
            fasta.extend_from_slice(b"\r\n");
        }
    }
    let fasta_file = dir.file("text.fa", &fasta);
    let plain_records = [("-", &text[..])];
    let fasta_records: Vec<(&str, &[u8])> =
        records.iter().map(|(n, s)| (n.as_str(), &s[..])).collect();

    let cases: Vec<(usize, usize, bool)> = (1..=4)
        .flat_map(|p| [(p, 0, false), (p, 2, false), (p, 5, false), (p, 2, true)])
        .collect();
    let jobs: Vec<util::Task<'_, Run>> = cases
        .iter()
        .map(|&(p, k, is_fasta)| {
            let (patterns, text) = (&pattern_file, if is_fasta { &fasta_file } else { &plain });
            Box::new(move || search(p, patterns, text, k, &[])) as util::Task<'_, Run>
        })
        .collect();
    for ((p, k, is_fasta), run) in cases.iter().zip(util::parallel(4, jobs)) {
        let run = run.ok();
        let records: &[(&str, &[u8])] = if *is_fasta {
            &fasta_records
        } else {
            &plain_records
        };
        let want = expected_tsv(&patterns, records, *k);
        let least = if *k == 0 { 2 } else { 10 };
        assert!(
            want.lines().count() > least,
            "the planted copies match: {p} ranks, k {k}, fasta {is_fasta}:\n{want}"
        );
        assert_eq!(run.stdout, want, "{p} ranks, k {k}, fasta {is_fasta}");
    }
}

/// A short text and many patterns: the ranks split the patterns (the report's grid says so),
/// and with --allow-all every position of the text matches, as the DP says.
#[test]
fn many_patterns_over_a_short_text_split_the_patterns() {
    let mut rng = Rng(77);
    let dir = Dir::new();
    let patterns: Vec<Vec<u8>> = (0..64).map(|_| rng.bytes(40)).collect();
    let pattern_file = write_patterns(&dir, &patterns);
    let text = rng.bytes(100);
    let text_file = dir.file("short.txt", &text);
    let json = dir.path("r.json");
    let out = dir.path("m.tsv");
    let run = search(
        4,
        &pattern_file,
        &text_file,
        5,
        &[
            "--json",
            json.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ],
    )
    .ok();
    let report = util::json(&json);
    assert_eq!(report["grid"]["pattern_parts"], 4, "{report:#}");
    assert_eq!(report["problem"], "search");
    let want = expected_tsv(&patterns, &[("-", &text[..])], 5);
    assert_eq!(std::fs::read_to_string(&out).unwrap(), want);
    assert!(
        run.stdout
            .contains("4 ranks: the text in 1 parts, the patterns in 4"),
        "{}",
        run.stdout
    );
    let short: Vec<Vec<u8>> = vec![b"ACG".to_vec(), b"T".to_vec()];
    let short_file = dir.file("short-patterns.txt", b"ACG\nT\n");
    let all = search(3, &short_file, &text_file, 4, &["--allow-all"]).ok();
    assert_eq!(all.stdout, expected_tsv(&short, &[("-", &text[..])], 4));
    assert_eq!(all.stdout.lines().count(), 1 + 2 * text.len());
}

/// Bad inputs under two ranks: each refused with one message and its exit status, every rank
/// ended, nothing written.
#[test]
fn bad_inputs_are_refused_with_one_message_and_nothing_written() {
    let dir = Dir::new();
    let good = dir.file("p.txt", b"ACGTAC\nGGTTAA\n");
    let text = dir.file("t.txt", b"ACGTACGGTTAACCGT\n");
    let empty = dir.file("empty.txt", b"ACGT\n\nGGTT\n");
    let binary = dir.file("binary.txt", b"ACGT\n\x00\x01\x02\n");
    let subdir = dir.path("sub");
    std::fs::create_dir(&subdir).unwrap();
    let (out, json) = (dir.path("o.tsv"), dir.path("o.json"));
    let outputs = [
        "--out",
        out.to_str().unwrap(),
        "--json",
        json.to_str().unwrap(),
    ];
    let cases: Vec<(PathBuf, PathBuf, &str, i32, &str)> = vec![
        (empty, text.clone(), "2", 3, "pattern 1 (line 2) is empty"),
        (
            binary,
            text.clone(),
            "2",
            3,
            "not text: it holds a NUL byte",
        ),
        (
            good.clone(),
            text.clone(),
            "6",
            2,
            "every position of the text would match",
        ),
        (good.clone(), text.clone(), "-1", 2, "0 or more"),
        (good.clone(), subdir, "2", 3, "is a directory"),
    ];
    let jobs: Vec<util::Task<'_, Run>> = cases
        .iter()
        .map(|(p, t, k, _, _)| {
            Box::new(move || {
                let mut a = args(&[&"search", p, t, &"--max-edits", k]);
                a.extend(outputs.iter().map(Into::into));
                util::mpirun(2, &a)
            }) as util::Task<'_, Run>
        })
        .collect();
    for ((_, _, k, code, problem), run) in cases.iter().zip(util::parallel(3, jobs)) {
        assert_refused_writing_nothing(&run, *code, problem, &[&out, &json]);
        let _ = k;
    }
}

/// `search PATTERNS /proc/cpuinfo -k 0` exited 0 with no match: the file system reports 0
/// bytes for /proc's files. A text whose size the file system does not report (/proc, a FIFO,
/// standard input) is read whole by rank 0 and shared with every rank: the TSV of a regular
/// copy, for every rank count; one longer than --max-input is refused by name.
#[test]
fn texts_without_a_real_size_are_read_by_their_content() {
    let dir = Dir::new();
    let version = Path::new("/proc/version");
    let words = dir.file("words.txt", b"Linux version\nprocessor\n");
    assert_eq!(std::fs::metadata(version).unwrap().len(), 0, "a size of 0");
    let copy = dir.file("version.txt", &std::fs::read(version).unwrap());
    let want = search(1, &words, &copy, 1, &[]).ok().stdout;
    assert!(
        want.starts_with("pattern\trecord\tstart\tend\tdistance\n0\t-\t0\t"),
        "{want}"
    );
    // One match of `processor` per processor, each at the start of its line.
    let cpuinfo = std::fs::read("/proc/cpuinfo").unwrap();
    let processors = cpuinfo
        .split(|&b| b == b'\n')
        .filter(|line| line.starts_with(b"processor"))
        .count();
    assert!(processors > 0);
    let mut rng = Rng(0x5eed_0004);
    let patterns = patterns(&mut rng);
    let pattern_file = write_patterns(&dir, &patterns);
    let mut fasta = Vec::new();
    for r in 0..4 {
        fasta.extend(format!(">r{r}\n").bytes());
        for _ in 0..20 {
            let gap = rng.below(30);
            fasta.extend(rng.bytes(gap));
            let which = rng.below(patterns.len());
            let copy = rng.mutated(&patterns[which], 2);
            fasta.extend(copy);
            fasta.push(b'\n');
        }
    }
    let regular = dir.file("text.fa", &fasta);
    let fasta_want = search(1, &pattern_file, &regular, 2, &[]).ok().stdout;
    assert!(fasta_want.lines().count() > 20, "{fasta_want}");
    for ranks in [1, 3] {
        let got = search(ranks, &words, version, 1, &[]).ok();
        assert_eq!(got.stdout, want, "{ranks} ranks");
        let got = search(ranks, &words, Path::new("/proc/cpuinfo"), 0, &[]).ok();
        let found = got
            .stdout
            .lines()
            .filter(|l| l.starts_with("1\t-\t"))
            .count();
        assert_eq!(found, processors, "{ranks} ranks:\n{}", got.stdout);
        let fifo = dir.path(&format!("text-{ranks}.fifo"));
        util::mkfifo(&fifo);
        let writer = util::feed(&fifo, &fasta);
        let got = search(ranks, &pattern_file, &fifo, 2, &[]).ok();
        writer.join().unwrap();
        assert_eq!(got.stdout, fasta_want, "a FIFO on {ranks} ranks");
        let a = args(&[&"search", &pattern_file, &"-", &"--max-edits", &"2"]);
        let got = util::run_with_input(util::mpirun_command(ranks, &a, &[]), &fasta).ok();
        assert_eq!(got.stdout, fasta_want, "standard input on {ranks} ranks");
    }
    let a = args(&[
        &"search",
        &pattern_file,
        &"-",
        &"-k",
        &"2",
        &"--max-input",
        &"1K",
    ]);
    let run = util::run_with_input(util::mpirun_command(2, &a, &[]), &fasta);
    assert_refused_writing_nothing(&run, 3, "more than the limit of 1024 bytes", &[]);
}

/// `search --allow-all` held about 163 bytes per match (4 million: 643 MiB) and its memory
/// check did not count them. Now each match costs at most 48 bytes above what the same search
/// holds with next to none, on every rank (rank 0 gathers them all); and a search whose
/// matches would not fit is refused before its scan (exit 4), saying how many it expects.
#[test]
fn matches_are_held_compactly_and_counted_in_the_memory_check() {
    let dir = Dir::new();
    let mut rng = Rng(0x5eed_0005);
    // Every end of the text matches each of the four patterns within k = 5.
    let len = 500_000;
    let text = dir.file("t.txt", &[rng.bytes(len), b"\n".to_vec()].concat());
    let patterns = dir.file("p.txt", b"ACGTA\nCCGTA\nGGTAC\nTTACG\n");
    let report = |ranks: usize, k: &str, extra: &[&str]| {
        let name = format!("{ranks}-{k}-{}", extra.len());
        let (out, json) = (
            dir.path(&format!("{name}.tsv")),
            dir.path(&format!("{name}.json")),
        );
        let mut a = args(&[
            &"search", &patterns, &text, &"-k", &k, &"--out", &out, &"--json", &json,
        ]);
        a.extend(extra.iter().map(Into::into));
        let run = util::mpirun(ranks, &a);
        (run, json)
    };
    let peaks = |json: &Path| -> Vec<u64> {
        util::json(json)["per_rank"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["peak_rss_bytes"].as_u64().unwrap())
            .collect()
    };
    for ranks in [1, 2] {
        let (run, json) = report(ranks, "0", &[]);
        run.ok();
        let base = peaks(&json);
        let few = util::json(&json)["matches"].as_u64().unwrap();
        let (run, json) = report(ranks, "5", &["--allow-all"]);
        run.ok();
        let all = util::json(&json)["matches"].as_u64().unwrap();
        assert_eq!(all, 4 * len as u64, "{ranks} ranks");
        for (rank, (b, a)) in base.iter().zip(peaks(&json)).enumerate() {
            let per_match = a.saturating_sub(*b) as f64 / (all - few) as f64;
            eprintln!("{ranks} ranks, rank {rank}: {per_match:.1} bytes per match");
            assert!(
                per_match <= 48.0,
                "{ranks} ranks, rank {rank}: {per_match:.1} bytes per match ({b} -> {a})"
            );
        }
        // A limit that holds the search but not its matches (2,000,000 of them): refused
        // before the scan, with nothing written.
        let (run, json) = report(ranks, "0", &[]);
        run.ok();
        let need = util::json(&json)["per_rank"][0]["memory_estimate_bytes"]
            .as_u64()
            .unwrap();
        let limit = format!("{}", need + (16 << 20));
        let (run, json) = report(ranks, "5", &["--allow-all", "--memory-limit", &limit]);
        assert_refused_writing_nothing(&run, 4, "2,000,000 matches", &[&json]);
        assert!(
            run.stderr.contains("every end of the text"),
            "{}",
            run.stderr
        );
    }
}

/// Four ranks that fail together each printed their error: `mpi-lcs: error: rank 2mpi-lcs:
/// error: rank : input file '1: …` was seen when their lines went out in pieces. Here ranks 1
/// to 4 run where the text's path names another file than rank 0's (hosts without a shared
/// file system): the failure is told once, by the lowest rank that met it, its line whole,
/// in six runs.
#[test]
fn ranks_that_fail_together_say_it_once_in_a_whole_line() {
    let (one, other) = (Dir::new(), Dir::new());
    for (dir, text) in [
        (&one, &b"ACGTACGT\n"[..]),
        (&other, b"ACGTACGTACGTACGTACGTACGT\n"),
    ] {
        dir.file("p.txt", b"ACG\n");
        dir.file("t.txt", text);
    }
    let a = ["search", "p.txt", "t.txt", "--max-edits", "0"];
    let line = |rank: usize| {
        format!(
            "mpi-lcs: error: rank {rank}: input file 't.txt': cannot read: rank {rank} sees 25 \
             bytes where rank 0 saw 9; every rank reads its own part of the text, so the file \
             must be one all ranks see at this path (one host, or a shared file system)"
        )
    };
    let jobs: Vec<util::Task<'_, Run>> = (0..6)
        .map(|_| {
            Box::new(|| {
                let parts = [(1, one.dir.path(), &a[..]), (4, other.dir.path(), &a[..])];
                util::run_with_timeout(util::mpirun_parts(&parts))
            }) as util::Task<'_, Run>
        })
        .collect();
    for run in util::parallel(3, jobs) {
        assert_eq!(run.status.code(), Some(3), "{run:#?}");
        assert_eq!(run.our_messages(), [line(1)], "{}", run.stderr);
    }
}

/// The reverse complement of a DNA pattern of A, C, G and T.
fn reverse_complement(p: &[u8]) -> Vec<u8> {
    let partner = |b: &u8| match b {
        b'A' => b'T',
        b'T' => b'A',
        b'C' => b'G',
        b'G' => b'C',
        _ => panic!("not DNA: {b}"),
    };
    p.iter().rev().map(partner).collect()
}

/// The TSV of a search on both strands, from the TSVs of two plain searches: `forward` (of the
/// patterns) and `reverse` (of their reverse complements, in the same order). Each pattern's
/// lines of `forward`, strand `+`, then its lines of `reverse`, strand `-`.
fn both_strands_tsv(forward: &str, reverse: &str) -> String {
    let rows = |tsv: &str, strand: char| -> Vec<(usize, String)> {
        assert!(
            tsv.starts_with("pattern\trecord\tstart\tend\tdistance\n"),
            "{tsv}"
        );
        let lines = tsv.lines().skip(1);
        lines
            .map(|l| {
                (
                    l.split('\t').next().unwrap().parse().unwrap(),
                    format!("{l}\t{strand}\n"),
                )
            })
            .collect()
    };
    let mut all = rows(forward, '+');
    all.extend(rows(reverse, '-'));
    // Stable: a pattern's + lines stay before its - lines, each in their order.
    all.sort_by_key(|(pattern, _)| *pattern);
    let mut out = String::from("pattern\trecord\tstart\tend\tdistance\tstrand\n");
    out.extend(all.into_iter().map(|(_, line)| line));
    out
}

/// `--both-strands` (and its alias `--rc`) on random DNA with copies of the patterns and of
/// their reverse complements planted, exact and with edits, some across every cut of 2 and 3
/// ranks, and on a FASTA text of four records: at P = 1, 2 and 3 the `+` lines are a plain
/// search of the patterns and the `-` lines a plain search of a file of their reverse
/// complements (the same numbers, starts, ends and distances: the reverse complement's
/// matches lie on the text as it is), which the DP confirms. A palindrome lists its matches
/// twice, once per strand. The report counts the file's patterns and says both strands; k at
/// least as long as a pattern is refused as without the flag, and `--allow-all` lists every
/// position on both strands.
#[test]
fn both_strands_search_the_patterns_and_their_reverse_complements() {
    let mut rng = Rng(0x5eed_0006);
    let dir = Dir::new();
    let mut patterns = patterns(&mut rng);
    // A palindrome: its own reverse complement.
    patterns.push(b"ACGAATTCGT".to_vec());
    assert_eq!(reverse_complement(b"ACGAATTCGT"), b"ACGAATTCGT");
    let reversed: Vec<Vec<u8>> = patterns.iter().map(|p| reverse_complement(p)).collect();
    let forward_file = write_patterns(&dir, &patterns);
    let lines =
        |ps: &[Vec<u8>]| -> Vec<u8> { ps.iter().flat_map(|p| [&p[..], b"\n"].concat()).collect() };
    let reversed_file = dir.file("reversed.txt", &lines(&reversed));

    let mut text = plain_text(&mut rng, &patterns, 3000);
    plant(&mut rng, &mut text, &reversed);
    let plain = dir.file("text.txt", &[&text[..], b"\n"].concat());
    let mut fasta = Vec::new();
    let mut records: Vec<(String, Vec<u8>)> = Vec::new();
    for r in 0..4 {
        let mut sequence = Vec::new();
        while sequence.len() < 500 {
            let gap = rng.below(40);
            sequence.extend(rng.bytes(gap));
            let which = rng.below(patterns.len());
            let strand = if rng.below(2) == 0 {
                &patterns[which]
            } else {
                &reversed[which]
            };
            let copy = rng.mutated(strand, 3);
            sequence.extend(copy);
        }
        fasta.extend(format!(">chr{r} strand test\n").bytes());
        for line in sequence.chunks(1 + rng.below(60)) {
            fasta.extend_from_slice(line);
            fasta.push(b'\n');
        }
        records.push((format!("chr{r}"), sequence));
    }
    let fasta_file = dir.file("text.fa", &fasta);
    let fasta_records: Vec<(&str, &[u8])> =
        records.iter().map(|(n, s)| (n.as_str(), &s[..])).collect();

    let plain_records: Vec<(&str, &[u8])> = vec![("-", &text[..])];
    let texts = [
        (plain.as_path(), plain_records),
        (fasta_file.as_path(), fasta_records),
    ];
    let cases: Vec<(usize, usize)> = vec![(0, 2), (0, 5), (1, 2)];
    let (forward_path, reversed_path) = (forward_file.as_path(), reversed_file.as_path());
    let mut jobs: Vec<util::Task<'_, Run>> = Vec::new();
    for &(t, k) in &cases {
        let text = texts[t].0;
        for file in [forward_path, reversed_path] {
            jobs.push(Box::new(move || search(1, file, text, k, &[])));
        }
        for p in 1..=3 {
            let flag = if p == 2 { "--rc" } else { "--both-strands" };
            jobs.push(Box::new(move || search(p, forward_path, text, k, &[flag])));
        }
    }
    let mut runs = util::parallel(3, jobs).into_iter().map(Run::ok);
    for &(t, k) in &cases {
        let what = format!("text {t}, k {k}");
        let (forward, reverse) = (runs.next().unwrap(), runs.next().unwrap());
        let records = &texts[t].1;
        assert_eq!(
            forward.stdout,
            expected_tsv(&patterns, records, k),
            "{what}"
        );
        assert_eq!(
            reverse.stdout,
            expected_tsv(&reversed, records, k),
            "{what}"
        );
        let want = both_strands_tsv(&forward.stdout, &reverse.stdout);
        for strand in ['+', '-'] {
            let lines = want.lines().filter(|l| l.ends_with(strand)).count();
            assert!(
                lines > 5,
                "{what}: the planted copies match on {strand}:\n{want}"
            );
        }
        let palindrome = |strand: &str| -> Vec<String> {
            let number = format!("{}\t", patterns.len() - 1);
            let lines = want
                .lines()
                .filter(|l| l.starts_with(&number) && l.ends_with(strand));
            lines.map(|l| l[..l.len() - 1].to_owned()).collect()
        };
        assert!(
            !palindrome("+").is_empty(),
            "{what}: the palindrome matches"
        );
        assert_eq!(palindrome("+"), palindrome("-"), "{what}");
        for p in 1..=3 {
            assert_eq!(runs.next().unwrap().stdout, want, "{what}, {p} ranks");
        }
    }

    // The report and the summary.
    let (out, json) = (dir.path("both.tsv"), dir.path("both.json"));
    let a = [
        "--both-strands",
        "--out",
        out.to_str().unwrap(),
        "--json",
        json.to_str().unwrap(),
    ];
    let run = search(2, &forward_file, &plain, 2, &a).ok();
    let report = util::json(&json);
    let listed = std::fs::read_to_string(&out).unwrap().lines().count() - 1;
    assert_eq!(report["patterns"], patterns.len(), "{report:#}");
    assert_eq!(report["strands"], 2, "{report:#}");
    assert_eq!(report["matches"], listed, "{report:#}");
    let per_pattern: Vec<u64> = (report["matches_per_pattern"].as_array().unwrap().iter())
        .map(|n| n.as_u64().unwrap())
        .collect();
    assert_eq!(per_pattern.len(), patterns.len());
    assert_eq!(per_pattern.iter().sum::<u64>(), listed as u64);
    let summary = format!(
        "{} patterns (6 to 90 bytes), both strands, at most 2 edits",
        patterns.len()
    );
    assert!(run.stdout.starts_with(&summary), "{}", run.stdout);
    let one = dir.path("one.json");
    search(
        1,
        &forward_file,
        &plain,
        2,
        &["--json", one.to_str().unwrap()],
    )
    .ok();
    assert_eq!(util::json(&one)["strands"], 1);

    // k against each pattern's length, as without the flag; --allow-all on both strands.
    let short = dir.file("short.txt", b"ACGTAC\nGGT\n");
    std::fs::remove_file(&out).unwrap();
    let refused = search(
        2,
        &short,
        &plain,
        3,
        &["--both-strands", "--out", out.to_str().unwrap()],
    );
    assert_refused_writing_nothing(&refused, 2, "pattern 1 (3 bytes)", &[&out]);
    let tiny = dir.file("tiny.txt", b"ACG\nT\n");
    let small = dir.file("small.txt", &rng.bytes(80));
    let rc_tiny = dir.file("rc-tiny.txt", b"CGT\nA\n");
    let want = both_strands_tsv(
        &search(1, &tiny, &small, 4, &["--allow-all"]).ok().stdout,
        &search(1, &rc_tiny, &small, 4, &["--allow-all"]).ok().stdout,
    );
    assert_eq!(want.lines().count(), 1 + 2 * 2 * 80);
    for p in [1, 3] {
        let run = search(p, &tiny, &small, 4, &["--allow-all", "--both-strands"]).ok();
        assert_eq!(run.stdout, want, "{p} ranks");
    }
}

/// The bases of a nucleotide code of IUPAC (A 1, C 2, G 4, T or U 8), in either case; 0 for
/// any other byte. Written out here, apart from the program's table.
fn bases(b: u8) -> u8 {
    match b.to_ascii_uppercase() {
        b'A' => 1,
        b'C' => 2,
        b'G' => 4,
        b'T' | b'U' => 8,
        b'R' => 5,
        b'Y' => 10,
        b'S' => 6,
        b'W' => 9,
        b'K' => 12,
        b'M' => 3,
        b'B' => 14,
        b'D' => 13,
        b'H' => 11,
        b'V' => 7,
        b'N' => 15,
        _ => 0,
    }
}

/// `--alphabet iupac`: patterns with `N`, `R` and `Y` over a text of bases with some `N` and
/// lower case, planted across the ranks' cuts; every rank count lists what the plain DP lists
/// when codes match as their bases meet, which the exact alphabet does not (it finds fewer);
/// with `--device gpu` it is refused by name.
#[test]
fn iupac_codes_match_when_their_bases_meet() {
    let mut rng = Rng(0x1_9ac);
    let dir = Dir::new();
    let mut patterns = patterns(&mut rng);
    for p in patterns.iter_mut() {
        for _ in 0..1 + p.len() / 8 {
            let at = rng.below(p.len());
            p[at] = b"NRY"[rng.below(3)];
        }
    }
    let pattern_file = write_patterns(&dir, &patterns);
    let mut text = plain_text(&mut rng, &patterns, 3000);
    for _ in 0..150 {
        let at = rng.below(text.len());
        text[at] = match rng.below(3) {
            0 => b'N',
            _ => text[at].to_ascii_lowercase(),
        };
    }
    let file = dir.file("text.txt", &[&text[..], b"\n"].concat());
    let same = |a: u8, b: u8| a == b || bases(a) & bases(b) != 0;
    let tsv = |same: &dyn Fn(u8, u8) -> bool| {
        let mut out = String::from("pattern\trecord\tstart\tend\tdistance\n");
        for (number, p) in patterns.iter().enumerate() {
            for (start, end, d) in plain_matches_by(p, &text, 2, same) {
                out += &format!("{number}\t-\t{start}\t{end}\t{d}\n");
            }
        }
        out
    };
    let (want, exact) = (tsv(&same), tsv(&|a, b| a == b));
    assert!(want.lines().count() > exact.lines().count() + 10, "{want}");
    let jobs: Vec<util::Task<'_, Run>> = (1..=3)
        .map(|p| {
            let (patterns, text) = (&pattern_file, &file);
            Box::new(move || search(p, patterns, text, 2, &["--alphabet", "iupac"]))
                as util::Task<'_, Run>
        })
        .collect();
    for (p, run) in (1..=3).zip(util::parallel(3, jobs)) {
        assert_eq!(run.ok().stdout, want, "{p} ranks");
    }
    assert_eq!(search(2, &pattern_file, &file, 2, &[]).ok().stdout, exact);
    let out = dir.path("o.tsv");
    let extra = [
        "--alphabet",
        "iupac",
        "--device",
        "gpu",
        "--out",
        out.to_str().unwrap(),
    ];
    let run = search(2, &pattern_file, &file, 2, &extra);
    assert_refused_writing_nothing(&run, 2, "--alphabet iupac runs on the CPU only", &[&out]);
}

/// `search -q` was refused as an unknown flag, though `solve` and `pairs` take it. Now it
/// silences the notes: `--device auto` where OpenCL lists no platform (and CUDA is not asked)
/// runs the CPU engines with a note, which `-q` (or `--quiet`) leaves out; the TSV is the same,
/// byte for byte, and one process without a launcher prints nothing at all on stderr.
#[test]
fn quiet_prints_no_notes() {
    let dir = Dir::new();
    let patterns = dir.file("p.txt", b"ACGTAC\nGGTTAA\n");
    let text = dir.file("t.txt", b"TTACGTACGGTTAACCGTACGTTC\n");
    let empty = dir.path("no-vendors");
    std::fs::create_dir(&empty).unwrap();
    let env = [("OCL_ICD_VENDORS", empty.to_str().unwrap())];
    let command = |quiet: &[&str]| {
        let mut a = args(&[&"search", &patterns, &text, &"-k", &"1"]);
        a.extend(args(&[&"--device", &"auto", &"--gpu-backend", &"opencl"]));
        a.extend(quiet.iter().map(Into::into));
        a
    };
    let cpu = search(2, &patterns, &text, 1, &[]).ok();
    assert!(cpu.stdout.lines().count() > 3, "{}", cpu.stdout);
    let noted = util::mpirun_env(2, &command(&[]), &env).ok();
    let notes = noted.our_messages();
    assert_eq!(notes.len(), 1, "{}", noted.stderr);
    assert!(
        notes[0].contains("note: --device auto: 2 of 2 ranks found no GPU"),
        "{notes:?}"
    );
    assert_eq!(noted.stdout, cpu.stdout);
    for quiet in ["-q", "--quiet"] {
        let run = util::mpirun_env(2, &command(&[quiet]), &env).ok();
        assert!(run.our_messages().is_empty(), "{quiet}: {}", run.stderr);
        assert_eq!(run.stdout, cpu.stdout, "{quiet}");
        let mut alone = util::plain_command(&command(&[quiet]));
        alone.env(env[0].0, env[0].1);
        let run = util::run_with_timeout(alone).ok();
        assert_eq!(run.stderr, "", "{quiet}");
        assert_eq!(run.stdout, cpu.stdout, "{quiet}");
    }
}

/// Search runs have result sets of their own: appended to one, they are refused by `table`
/// (which compares solve runs), and a solve run will not append to it.
#[test]
fn search_result_sets_are_their_own() {
    let dir = Dir::new();
    let patterns = dir.file("p.txt", b"ACGTAC\n");
    let text = dir.file("t.txt", b"TTACGTACTT\n");
    let csv = dir.path("runs.csv");
    for _ in 0..2 {
        let run = util::plain(&args(&[
            &"search",
            &patterns,
            &text,
            &"-k",
            &"1",
            &"--append-csv",
            &csv,
        ]))
        .ok();
        assert!(run.stdout.starts_with("pattern\trecord"), "{}", run.stdout);
    }
    let table = util::csv(&csv);
    assert_eq!(util::column(&table, "problem"), ["search", "search"]);
    assert_eq!(util::column(&table, "matches"), ["3", "3"]);
    let refused = util::plain(&args(&[&"table", &csv]));
    assert_eq!(refused.status.code(), Some(3), "{refused:#?}");
    assert!(
        refused.stderr.contains("holds search runs"),
        "{}",
        refused.stderr
    );
    let input = dir.input("pair.txt", b"ACGT", b"AGT");
    let solve = util::plain(&args(&[&"solve", &input, &"--append-csv", &csv]));
    assert_eq!(solve.status.code(), Some(5), "{solve:#?}");
    assert!(
        solve.stderr.contains("is a result set of search runs"),
        "{}",
        solve.stderr
    );
}

/// A rank slowed by its host (`slow:1:50`: 50 ms after each 64 KiB it scans) hands part of its
/// text to the other two as they go (half what it has left when it looks for asks, every
/// 256 KiB): the TSV is byte for byte what each rank scanning its own
/// part finds, and one rank alone; the slowed rank gave what the others took; the ranks
/// together scanned every byte once (besides the warm-ups); and the asks and answers are
/// counted among the control messages.
#[test]
fn a_slowed_rank_hands_its_text_to_the_others() {
    let mut rng = Rng(0x5eed_0041);
    let dir = Dir::new();
    let patterns: Vec<Vec<u8>> = [16, 27, 45, 90].iter().map(|&m| rng.bytes(m)).collect();
    let pattern_file = write_patterns(&dir, &patterns);
    // Copies every 37,000 bytes or so, across any place a part may be cut.
    let mut text = rng.bytes(3 << 20);
    for (n, at) in (1000..text.len() - 200).step_by(37_001).enumerate() {
        let copy = rng.mutated(&patterns[n % patterns.len()], 3);
        text[at..at + copy.len()].copy_from_slice(&copy);
    }
    let text_file = dir.file("text.txt", &text);
    let run = |ranks: usize, split: &str, env: &[(&str, &str)], name: &str| {
        let (tsv, json) = (
            dir.path(&format!("{name}.tsv")),
            dir.path(&format!("{name}.json")),
        );
        let a = args(&[
            &"search",
            &pattern_file,
            &text_file,
            &"-k",
            &"3",
            &"--split",
            &split,
            &"--out",
            &tsv,
            &"--json",
            &json,
        ]);
        let run = util::mpirun_env(ranks, &a, env).ok();
        (
            std::fs::read_to_string(&tsv).unwrap(),
            util::json(&json),
            run,
        )
    };
    let (shared, report, summary) = run(3, "shared", &[("MPI_LCS_FAULT", "slow:1:50")], "shared");
    let (fixed, fixed_report, _) = run(3, "static", &[], "static");
    let (alone, _, _) = run(1, "shared", &[], "alone");
    assert!(shared.lines().count() > 80, "the copies match:\n{shared}");
    assert_eq!(shared, fixed);
    assert_eq!(shared, alone);

    assert_eq!(report["split"], "shared");
    assert_eq!(fixed_report["split"], "static");
    assert!(
        summary.stdout.contains("shared as they went"),
        "{}",
        summary.stdout
    );
    let ranks = report["per_rank"].as_array().unwrap();
    let field = |r: &serde_json::Value, f: &str| r[f].as_u64().unwrap();
    let given: u64 = ranks.iter().map(|r| field(r, "bytes_given")).sum();
    let taken: u64 = ranks.iter().map(|r| field(r, "bytes_taken")).sum();
    assert_eq!(given, taken);
    assert!(
        field(&ranks[1], "bytes_given") >= 1 << 18,
        "the slowed rank gave a quarter of its part at least: {ranks:#?}"
    );
    assert_eq!(field(&ranks[1], "bytes_taken"), 0);
    let own: u64 = ranks
        .iter()
        .map(|r| field(r, "bytes_scanned") - field(r, "warm_up_bytes"))
        .sum();
    assert_eq!(own, text.len() as u64, "every byte scanned once");
    for r in fixed_report["per_rank"].as_array().unwrap() {
        assert_eq!((field(r, "bytes_given"), field(r, "bytes_taken")), (0, 0));
    }
    // Each rank's matches delivered, and at least an ask and its answer per rank.
    let control = |r: &serde_json::Value| r["messages"]["control"].as_u64().unwrap();
    assert!(
        control(&report) >= control(&fixed_report) + 6,
        "{report:#?}"
    );
}
