//! The one-process commands: `reference`, `schedule`, `generate`, `plot` and `table`; and the
//! pictures.

use std::collections::BTreeSet;

use crate::util::{self, args, Dir};

#[test]
fn schedule_prints_the_reports_grids() {
    let run = util::plain(&["schedule", "--rows", "5", "--cols", "8", "--ranks", "3"]).ok();
    let grid = "\
p0 p0 p0 p0 p0 p0 p0 p0
p1 p1 p0 p0 p0 p0 p0 p0
p2 p1 p1 p1 p1 p1 p0 p0
p2 p1 p1 p1 p1 p1 p1 p0
p2 p2 p2 p2 p2 p2 p1 p0
";
    assert!(run.stdout.contains(grid), "got:\n{}", run.stdout);
    let run = util::plain(&["schedule", "--rows", "4", "--cols", "6", "--ranks", "2"]).ok();
    let grid = "\
p0 p0 p0 p0 p0 p0
p1 p0 p0 p0 p0 p0
p1 p1 p1 p1 p0 p0
p1 p1 p1 p1 p1 p0
";
    assert!(run.stdout.contains(grid), "got:\n{}", run.stdout);
}

#[test]
fn generate_is_reproducible_and_matches_committed_inputs() {
    let dir = Dir::new();
    let a = dir.path("a.txt");
    let b = dir.path("b.txt");
    for out in [&a, &b] {
        util::plain(&[
            "generate".as_ref(),
            "--len".as_ref(),
            "11".as_ref(),
            "--len2".as_ref(),
            "13".as_ref(),
            "--seed".as_ref(),
            "1".as_ref(),
            "-o".as_ref(),
            out.as_os_str(),
        ])
        .ok();
    }
    let bytes = std::fs::read(&a).unwrap();
    assert_eq!(bytes, std::fs::read(&b).unwrap());
    assert_eq!(bytes, std::fs::read(util::repo_input("small.txt")).unwrap());
}

#[test]
fn reference_prints_and_writes_json() {
    let dir = Dir::new();
    let input = dir.input("r.txt", b"XMJYAUZ", b"MZJAWXU");
    let out = dir.path("r.json");
    let run = util::plain(&[
        "reference".as_ref(),
        input.as_os_str(),
        "--json".as_ref(),
        out.as_os_str(),
    ])
    .ok();
    let report = util::json(&out);
    assert_eq!(report["lcs_length"], 4);
    assert_eq!(report["rows"], 7);
    assert_eq!(report["swapped"], false);
    assert_eq!(report["engine"], "reference");
    assert!(
        report["seconds"]["total"].as_f64().unwrap() >= report["seconds"]["fill"].as_f64().unwrap()
    );
    let lcs = report["lcs"].as_str().unwrap();
    assert!(run.stdout.contains(&format!("LCS: {lcs}")));
}

/// A reader that goes away ends the output quietly; a full disk is one message and exit 5;
/// the files are written before anything is printed.
#[test]
fn standard_output_failures_are_handled() {
    let dir = Dir::new();
    let input = util::repo_input("large_2.txt");
    let json = dir.path("r.json");
    let mut cmd = util::plain_command(&args(&[&"reference", &input, &"--json", &json]));
    cmd.stdout(std::fs::File::create("/dev/full").unwrap());
    // Job::spawn pipes stdout; this run needs it on /dev/full, so it runs directly.
    let out = cmd.stderr(std::process::Stdio::piped()).output().unwrap();
    assert_eq!(out.status.code(), Some(5), "{out:?}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.contains("cannot write to standard output"),
        "{stderr}"
    );
    assert!(
        util::json(&json)["lcs_length"].as_u64().unwrap() > 0,
        "written first"
    );

    // `| head -c 10`: the pipe closes early.
    let mut child = util::plain_command(&args(&[&"reference", &input]))
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// `--memory-limit 0` exited 4 (not enough memory) and `--memory-limit 99999999999T` was
/// taken as no limit at all: a size beyond its bounds is a usage error (exit 2), from the
/// environment too.
#[test]
fn sizes_beyond_their_bounds_are_usage_errors() {
    let input = util::repo_input("small.txt");
    let cases = [
        ("--memory-limit", "0"),
        ("--memory-limit", "99999999999T"),
        ("--max-input", "0"),
    ];
    for (flag, size) in cases {
        let run = util::plain(&args(&[&"reference", &input, &flag, &size]));
        assert_eq!(run.status.code(), Some(2), "{flag} {size}: {run:?}");
        assert!(run.stderr.contains("a size must be at"), "{}", run.stderr);
    }
    let mut cmd = util::plain_command(&args(&[&"reference", &input]));
    cmd.env("MPI_LCS_MEMORY_LIMIT", "0");
    let run = util::run_with_timeout(cmd);
    assert_eq!(run.status.code(), Some(2), "{run:?}");
    assert_eq!(run.our_messages().len(), 1, "{}", run.stderr);
    assert!(
        run.stderr
            .contains("MPI_LCS_MEMORY_LIMIT: '0': a size must be at least 1B"),
        "{}",
        run.stderr
    );
}

/// `--json /dev/null` was refused (exit 5) where a user means "discard": the null device takes
/// any output, and stays the device it is.
#[test]
fn the_null_device_takes_any_output() {
    let input = util::repo_input("small.txt");
    let null = "/dev/null";
    let run = util::plain(&args(&[
        &"reference",
        &input,
        &"--json",
        &null,
        &"--paf",
        &null,
        &"--append-csv",
        &null,
    ]))
    .ok();
    assert!(run.stdout.contains("LCS length: 7"), "{}", run.stdout);
    // generate streams its file: into the null device it writes nothing, and no file is made
    // beside it (renamed over it, it would replace the device).
    util::plain(&args(&[
        &"generate",
        &"--len",
        &"1000",
        &"--seed",
        &"1",
        &"-o",
        &null,
    ]))
    .ok();
    let meta = std::fs::metadata(null).unwrap();
    assert!(std::os::unix::fs::FileTypeExt::is_char_device(
        &meta.file_type()
    ));
    let strays: Vec<_> = std::fs::read_dir("/dev")
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().starts_with(".mpi-lcs"))
        .collect();
    assert!(strays.is_empty(), "{strays:?}");
}

/// The message arrows of an SVG picture, found by parsing it: the marks of class `message`.
fn arrows(svg: &str) -> usize {
    let doc = roxmltree::Document::parse(svg).expect("a picture is well-formed XML");
    doc.descendants()
        .filter(|n| n.attribute("class") == Some("message"))
        .count()
}

#[test]
fn pictures_draw_one_arrow_per_boundary_message() {
    let dir = Dir::new();
    let grid = dir.path("grid.svg");
    let run = util::plain(&[
        "schedule".as_ref(),
        "--rows".as_ref(),
        "5".as_ref(),
        "--cols".as_ref(),
        "8".as_ref(),
        "--ranks".as_ref(),
        "3".as_ref(),
        "--svg".as_ref(),
        grid.as_os_str(),
    ])
    .ok();
    let predicted: usize = run
        .stdout
        .lines()
        .find_map(|l| l.strip_prefix("predicted boundary messages: "))
        .and_then(|n| n.trim().parse().ok())
        .unwrap_or_else(|| panic!("no predicted total in:\n{}", run.stdout));
    assert_eq!(predicted, 20, "the report's 5 x 8 grid on 3 ranks");
    assert_eq!(arrows(&std::fs::read_to_string(&grid).unwrap()), predicted);

    for ranks in [1, 3, 4] {
        let (svg, json) = (dir.path("run.svg"), dir.path("run.json"));
        util::mpirun(
            ranks,
            &[
                "solve".as_ref(),
                util::repo_input("small.txt").as_os_str(),
                "--svg".as_ref(),
                svg.as_os_str(),
                "--json".as_ref(),
                json.as_os_str(),
            ],
        )
        .ok();
        let report = util::json(&json);
        let text = std::fs::read_to_string(&svg).unwrap();
        assert!(
            text.starts_with("<svg") || text.starts_with("<?xml"),
            "not SVG"
        );
        let boundary = report["messages"]["boundary"].as_u64().unwrap() as usize;
        assert_eq!(arrows(&text), boundary, "{ranks} ranks");
        assert!(
            text.contains(report["lcs"].as_str().unwrap()),
            "title names the LCS"
        );
    }

    // Larger than 64 x 64: refused before any work, nothing written.
    let big = dir.input("big.txt", &[b'A'; 65], &[b'C'; 65]);
    let svg = dir.path("big.svg");
    let run = util::mpirun(
        2,
        &[
            "solve".as_ref(),
            big.as_os_str(),
            "--svg".as_ref(),
            svg.as_os_str(),
        ],
    );
    assert_eq!(run.status.code(), Some(2), "{run:?}");
    assert!(run.stderr.contains("limited to 64 x 64"), "{}", run.stderr);
    assert!(!svg.exists());
    let html = dir.path("big.html");
    let run = util::mpirun(2, &args(&[&"solve", &big, &"--html", &html]));
    assert_eq!(run.status.code(), Some(2), "{run:?}");
    assert_eq!(
        run.our_messages(),
        [
            "mpi-lcs: error: --html pages are limited to 64 x 64 cells; this matrix is 65 x 65: \
          --engine bands draws it"
        ]
    );
    assert!(
        run.stdout.is_empty(),
        "refused before any work: {}",
        run.stdout
    );
    assert!(!html.exists());
}

/// A page or picture too large is refused with exit 2, but `schedule` still prints its text.
#[test]
fn refused_pages_still_print_the_schedule() {
    let dir = Dir::new();
    for flag in ["--html", "--svg"] {
        let out = dir.path("big.out");
        let run = util::plain(&args(&[
            &"schedule",
            &"--rows",
            &"70",
            &"--cols",
            &"65",
            &"--ranks",
            &"4",
            &flag,
            &out,
        ]));
        assert_eq!(run.status.code(), Some(2), "{run:?}");
        assert!(
            run.stdout
                .contains("(rows are the shorter sequence: showing 65 rows x 70 cols)"),
            "{}",
            run.stdout
        );
        assert!(run.stdout.contains("predicted boundary messages: "));
        assert!(
            run.stderr.contains("limited to 64 x 64 cells"),
            "{}",
            run.stderr
        );
        assert!(!out.exists(), "{flag}");
    }
}

/// The cores this process may run on (its affinity and CPU quota, as the ranks it starts
/// count them): one rank more is oversubscribed.
fn usable_cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// A result set of real runs: `solve` on 1 and 2 ranks and on one rank more than this host
/// has cores (oversubscribed), and the reference, for two inputs.
fn result_set(dir: &Dir) -> std::path::PathBuf {
    let csv = dir.path("runs.csv");
    let crowded = (usable_cores() + 1).max(3);
    for name in ["small.txt", "medium.txt"] {
        let input = util::repo_input(name);
        for ranks in [1, 2, crowded] {
            util::mpirun(ranks, &args(&[&"solve", &input, &"--append-csv", &csv])).ok();
        }
        util::plain(&args(&[&"reference", &input, &"--append-csv", &csv])).ok();
    }
    csv
}

/// A configuration as both tools name it: input name, `engine · store`, ranks.
type Shown = (String, String, usize);

/// The time table of `table`'s Markdown: every configuration with a time, and those marked †.
fn table_marks(md: &str) -> (BTreeSet<Shown>, BTreeSet<Shown>) {
    let section = md
        .split("\n## ")
        .find(|s| s.starts_with("Time\n"))
        .unwrap_or_else(|| panic!("no time table in:\n{md}"));
    let rows: Vec<Vec<&str>> = section
        .lines()
        .filter(|l| l.starts_with('|'))
        .map(|l| l.trim_matches('|').split('|').map(str::trim).collect())
        .collect();
    let header = &rows[0];
    assert_eq!(
        header[..4],
        ["input", "size", "engine · store", "sequential"]
    );
    let ranks: Vec<usize> = header[4..]
        .iter()
        .map(|h| h.strip_prefix("p = ").unwrap().parse().unwrap())
        .collect();
    let (mut all, mut marked) = (BTreeSet::new(), BTreeSet::new());
    for row in &rows[2..] {
        for (cell, &p) in row[4..].iter().zip(&ranks) {
            if *cell == "—" {
                continue;
            }
            let shown = (row[0].to_owned(), row[2].to_owned(), p);
            if cell.contains('†') {
                marked.insert(shown.clone());
            }
            all.insert(shown);
        }
    }
    (all, marked)
}

/// The points of a plot, read from their SVG groups: every configuration drawn, and those
/// drawn hollow (their marker filled white).
fn plot_marks(svg: &str) -> (BTreeSet<Shown>, BTreeSet<Shown>) {
    let doc = roxmltree::Document::parse(svg).expect("the plot is XML");
    let (mut all, mut marked) = (BTreeSet::new(), BTreeSet::new());
    for g in doc
        .descendants()
        .filter(|n| n.attribute("class") == Some("point"))
    {
        let tag = |k: &str| {
            g.attribute(k)
                .unwrap_or_else(|| panic!("a point without {k}"))
        };
        let input = tag("data-input");
        let name = input.rsplit('/').next().unwrap();
        let name = name.strip_suffix(".txt").unwrap_or(name).to_owned();
        let how = match tag("data-store") {
            "" => tag("data-engine").to_owned(),
            store => format!("{} · {store}", tag("data-engine")),
        };
        let shown = (name, how, tag("data-ranks").parse().unwrap());
        let marker = g
            .children()
            .find(|c| c.has_tag_name("circle") || c.has_tag_name("polygon"))
            .expect("a point has a marker");
        if marker.attribute("fill") == Some("white") {
            marked.insert(shown.clone());
        }
        all.insert(shown);
    }
    (all, marked)
}

/// `table` and `plot` of the result set `csv` (written into `dir`) show the same
/// configurations and mark the same ones oversubscribed; returns the marked ones.
fn table_and_plot_agree(csv: &std::path::Path, dir: &Dir) -> BTreeSet<Shown> {
    let md = util::plain(&args(&[&"table", &csv])).ok().stdout;
    let out = dir.path("agree");
    util::plain(&args(&[&"plot", &csv, &"--out", &out])).ok();
    let (tabled, table_marked) = table_marks(&md);
    assert!(!tabled.is_empty(), "{md}");
    for file in [
        "time_vs_ranks.svg",
        "efficiency_vs_ranks.svg",
        "speedup_vs_ranks.svg",
    ] {
        let svg = std::fs::read_to_string(out.join(file)).unwrap();
        let (drawn, plot_marked) = plot_marks(&svg);
        // Speed-up and efficiency need a 1-rank run of the series; this set has them all.
        assert_eq!(
            drawn, tabled,
            "{file}: the configurations drawn and tabled differ"
        );
        assert_eq!(
            plot_marked, table_marked,
            "{file}: hollow markers and † differ"
        );
    }
    table_marked
}

#[test]
fn plot_and_table_summarise_a_result_set() {
    let dir = Dir::new();
    let csv = result_set(&dir);
    let out = dir.path("plots");
    let run = util::plain(&args(&[&"plot", &csv, &"--out", &out])).ok();
    for file in [
        "time_vs_ranks.svg",
        "speedup_vs_ranks.svg",
        "efficiency_vs_ranks.svg",
        "time_breakdown.svg",
        "messages_vs_ranks.svg",
    ] {
        let path = out.join(file);
        let text = std::fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("{}: {e}\n{}", path.display(), run.stdout));
        let doc = roxmltree::Document::parse(&text).unwrap_or_else(|e| panic!("{file}: {e}"));
        let named = doc
            .descendants()
            .filter_map(|n| n.text())
            .any(|t| t.contains("medium (540 × 550) · diagonal · dense"));
        assert!(named, "{file} does not name the series");
    }
    let missing = util::plain(&["plot", "/nonexistent/runs.csv"]);
    assert_eq!(missing.status.code(), Some(3));

    let run = util::plain(&args(&[&"table", &csv])).ok();
    let md = run.stdout;
    for wanted in [
        "| input | size | engine · store | sequential | p = 1 | p = 2 |",
        "| medium | 540 × 550 | diagonal · dense |",
        "| medium | 540 × 550 | diagonal | 2 | 1,088 | 1,088 | yes |",
        "- small: all 4 runs found LCS length",
        "| 1 | 1 host | `",
    ] {
        assert!(md.contains(wanted), "no '{wanted}' in:\n{md}");
    }
    // --out writes the same document to a file, and refuses to overwrite the result set.
    let readme = dir.path("README.md");
    let run = util::plain(&args(&[&"table", &csv, &"--out", &readme])).ok();
    assert!(run.stdout.is_empty());
    assert_eq!(std::fs::read_to_string(&readme).unwrap(), md);
    let run = util::plain(&args(&[&"table", &csv, &"--out", &csv]));
    assert_eq!(run.status.code(), Some(5), "{run:?}");
}

/// `schedule` has bounds, says so, and answers for huge matrices: its counts are closed-form
/// (counting 10^18 cells one by one would never end, and the harness's timeout would fail the
/// run as hung; how fast it answers is not asserted).
#[test]
fn schedule_bounds_and_huge_matrices() {
    let run = util::plain(&[
        "schedule", "--rows", "5", "--cols", "8", "--ranks", "100000",
    ]);
    assert_eq!(run.status.code(), Some(2), "{run:?}");
    assert!(
        run.stderr.contains("--ranks must be between 1 and 1024"),
        "{}",
        run.stderr
    );
    let run = util::plain(&["schedule", "--rows", "5", "--cols", "9999999999"]);
    assert_eq!(run.status.code(), Some(2), "{run:?}");
    let run = util::plain(&[
        "schedule",
        "--rows",
        "1000000000",
        "--cols",
        "1000000000",
        "--ranks",
        "8",
    ])
    .ok();
    assert!(
        run.stdout.contains("predicted boundary messages: "),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains("\n  p7    124999999125000000  "),
        "{}",
        run.stdout
    );
}

/// `generate` never writes a file that reads back as something else.
#[test]
fn generate_refuses_what_would_not_read_back() {
    let dir = Dir::new();
    let out = dir.path("g.txt");
    for alphabet in ["\r", "A\nC"] {
        let run = util::plain(&args(&[
            &"generate",
            &"--len",
            &"10",
            &"--alphabet",
            &alphabet,
            &"--seed",
            &"1",
            &"-o",
            &out,
        ]));
        assert_eq!(run.status.code(), Some(2), "{alphabet:?}: {run:?}");
        assert!(run.stderr.contains("line break"), "{}", run.stderr);
    }
    // With '>' in the alphabet, some seed starts the first line with it: refused, or the
    // file reads back as the pair that was drawn.
    let mut refused = 0;
    for seed in 0..8 {
        let run = util::plain(&args(&[
            &"generate",
            &"--len",
            &"6",
            &"--alphabet",
            &"A>",
            &"--seed",
            &seed.to_string(),
            &"-o",
            &out,
        ]));
        match run.status.code() {
            Some(2) => {
                assert!(run.stderr.contains("reads as FASTA"), "{}", run.stderr);
                refused += 1;
            }
            Some(0) => {
                let json = dir.path("g.json");
                util::plain(&args(&[&"reference", &out, &"--json", &json])).ok();
                assert_eq!(util::json(&json)["format"], "plain", "seed {seed}");
            }
            _ => panic!("{run:?}"),
        }
    }
    assert!(refused > 0, "no seed put '>' first");
}

/// Every subcommand's help lists the exit codes; a usage error under a launcher is printed
/// once, not once per rank.
#[test]
fn usage_is_documented_and_reported_once() {
    for sub in [
        "solve",
        "reference",
        "schedule",
        "generate",
        "plot",
        "table",
    ] {
        let run = util::plain(&[sub, "--help"]).ok();
        assert!(run.stdout.contains("Exit status:"), "{sub}: {}", run.stdout);
        assert!(run.stdout.contains("5  an output file"), "{sub}");
    }
    let run = util::mpirun(3, &["solve", "--bogus"]);
    assert_eq!(run.status.code(), Some(2), "{run:?}");
    assert_eq!(
        run.stderr.matches("unexpected argument").count(),
        1,
        "{}",
        run.stderr
    );
    let run = util::mpirun_env(3, &["solve", "x.txt"], &[("MPI_LCS_FAULT", "nonsense")]);
    assert_eq!(run.status.code(), Some(2), "{run:?}");
    assert_eq!(run.our_messages().len(), 1, "{}", run.stderr);
    assert!(run.stderr.contains("MPI_LCS_FAULT"), "{}", run.stderr);
}

/// One rank more than cores is oversubscribed: the table marks it †, the plots draw it hollow,
/// and nothing else.
#[test]
fn table_and_plot_mark_the_same_runs_oversubscribed() {
    let dir = Dir::new();
    let csv = result_set(&dir);
    let crowded = (usable_cores() + 1).max(3);
    let marked = table_and_plot_agree(&csv, &dir);
    let expected: BTreeSet<Shown> = ["small", "medium"]
        .iter()
        .flat_map(|name| [1, 2, crowded].map(|p| (name.to_string(), p)))
        .filter(|&(_, p)| p > usable_cores())
        .map(|(name, p)| (name, "diagonal · dense".to_owned(), p))
        .collect();
    assert_eq!(marked, expected);
}

/// The committed result set (README, "Experiments"): its table and plots, made again, agree
/// with each other, and so do the committed ones.
#[test]
fn committed_results_mark_the_same_runs_in_table_and_plots() {
    let set = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("results/small-inputs");
    let dir = Dir::new();
    let marked = table_and_plot_agree(&set.join("runs.csv"), &dir);
    assert!(
        !marked.is_empty(),
        "the committed set has oversubscribed runs (P = 4)"
    );
    let committed_table = std::fs::read_to_string(set.join("README.md")).unwrap();
    assert_eq!(
        table_marks(&committed_table).1,
        marked,
        "committed README.md"
    );
    let committed_plot = std::fs::read_to_string(set.join("time_vs_ranks.svg")).unwrap();
    assert_eq!(
        plot_marks(&committed_plot).1,
        marked,
        "committed time_vs_ranks.svg"
    );
}
