//! What the classroom page teaches besides the run: the introduction a student reads first (the
//! problem, its recurrence, why a diagonal's cells are independent, what a message and a hop cost),
//! and the two engines' messages for the same input compared in one table (the lesson of message
//! aggregation): a count is the run's own where the run measured it, else the closed-form
//! prediction (which every run is tested to meet exactly); times appear only where measured. Texts
//! mark formulas with backticks, as the legends' words do.

use serde::Serialize;

use super::pipeline::Pipeline;
use super::wavefront::Wavefronts;
use crate::comm::protocol::VALUE_BYTES;
use crate::engines::bands::BandPlan;
use crate::engines::diagonal::schedule::Schedule;
use crate::report::{EngineKind, Report};
use lcs_core::problem::Problem;

/// One engine's line of the comparison.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct EngineLine {
    pub engine: &'static str,
    /// `this run` (measured) or `predicted`.
    pub source: &'static str,
    pub setting: String,
    pub messages: u64,
    pub bytes: u64,
    /// Steps at which neighbours wait for one another: diagonals, or pipeline stages.
    pub steps: u64,
    /// The fill's seconds (the slowest rank's), when measured.
    pub seconds: Option<f64>,
    /// Ranks the engine gives work to, of the run's `ranks`.
    pub ranks_used: usize,
    pub ranks: usize,
    /// Why it would leave ranks idle, when it would.
    pub idle: Option<String>,
}

/// How the bands engine's messages and waits change with the batch: one line per batch size.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct BatchOption {
    pub batch: usize,
    pub messages: u64,
    pub bytes: u64,
    /// The messages' distinct sizes in bytes, each with its count (a shorter last batch sends
    /// fewer words), largest first.
    pub sizes: Vec<(u64, u64)>,
    /// Pipeline stages: the steps at which a band waits for the carries of the band before.
    pub stages: u64,
}

/// `k` with its noun, singular or plural.
pub fn plural(k: u64, one: &str, many: &str) -> String {
    format!("{k} {}", if k == 1 { one } else { many })
}

/// Both engines on one input: the diagonal engine first. The bands engine is `bands`, or
/// predicted with batches of `batch` rows.
pub fn compare(
    (m, n, ranks): (usize, usize, usize),
    problem: Problem,
    bands: Option<&Pipeline>,
    batch: usize,
    report: Option<&Report>,
) -> Vec<EngineLine> {
    let schedule = Schedule::new(m, n, ranks);
    let predicted = schedule.predicted_messages().total;
    let working = schedule.working_ranks();
    let mut diagonal = EngineLine {
        engine: "diagonal",
        source: "predicted",
        setting: "one value per boundary cell".into(),
        messages: predicted,
        bytes: predicted * VALUE_BYTES as u64,
        steps: schedule.diagonals() as u64,
        seconds: None,
        ranks_used: working,
        ranks,
        idle: (working < ranks && m > 0).then(|| {
            format!(
                "no diagonal is longer than {}, so {} own no cell",
                plural(m as u64, "cell", "cells"),
                idle_names(working, ranks)
            )
        }),
    };
    let plan = BandPlan::new(m, n, ranks, batch).with_problem(problem);
    let pipe = bands.copied().unwrap_or_else(|| Pipeline::of_plan(&plan));
    let mut banded = EngineLine {
        engine: "bands",
        source: "predicted",
        setting: format!(
            "batches of {}{}",
            plural(pipe.batch() as u64, "row", "rows"),
            if pipe.teaching() {
                format!(", words of {} columns (teaching)", pipe.word())
            } else {
                String::new()
            }
        ),
        messages: pipe.predicted_messages(),
        bytes: pipe.predicted_bytes(),
        steps: pipe.stages() as u64,
        seconds: None,
        ranks_used: pipe.active_ranks(),
        ranks,
        idle: (pipe.active_ranks() < ranks && m > 0).then(|| why_idle(&pipe)),
    };
    if let Some(r) = report {
        let line = match r.engine {
            EngineKind::Bands => &mut banded,
            _ => &mut diagonal,
        };
        line.source = "this run";
        line.messages = r.messages.boundary;
        line.bytes = r.bytes.boundary;
        line.seconds = Some(r.seconds.fill);
    }
    vec![diagonal, banded]
}

/// A wave run beside the diagonal engine on the same pair: the diagonal engine's messages
/// predicted from its schedule, one wait per anti-diagonal; the wave's the run's own, one wait
/// per score step.
pub fn compare_wave(w: &Wavefronts, report: Option<&Report>) -> Vec<EngineLine> {
    let (m, n, ranks) = (w.rows, w.cols, w.ranks);
    let mut lines = compare((m, n, ranks), w.problem, None, 256, None);
    lines.truncate(1);
    let steps = w.steps.len() as u64;
    let used = w.ranks_used();
    let widest = w.widest();
    lines[0].setting = format!(
        "one value per boundary cell, {}",
        plural(m as u64 + n as u64 - 1, "anti-diagonal", "anti-diagonals")
    );
    let (messages, bytes) = match report {
        Some(r) => (r.messages.boundary, r.bytes.boundary),
        None => {
            let bytes = w.halos.iter().map(|h| h.bytes).sum();
            (w.halos.len() as u64, bytes)
        }
    };
    lines.push(EngineLine {
        engine: "wave",
        source: if report.is_some() {
            "this run"
        } else {
            "recorded"
        },
        setting: format!(
            "{} (cost {}, bound {}), one halo each way between neighbours {}; {} of the {} \
             cells reached",
            plural(steps, "score step", "score steps"),
            w.cost,
            w.bound,
            w.exchange_words(),
            w.reached(),
            m * n
        ),
        messages,
        bytes,
        steps,
        seconds: report.map(|r| r.seconds.fill),
        ranks_used: used,
        ranks,
        idle: (used < ranks).then(|| {
            format!(
                "a step is shared only when it gives each rank {} diagonals, and the widest \
                 step here has {}: {} own no diagonal at any step (they still exchange empty \
                 halos {})",
                w.min_share(),
                plural(widest as u64, "diagonal", "diagonals"),
                idle_names(used, ranks),
                w.exchange_words()
            )
        }),
    });
    lines
}

/// The verdict of a wave page's comparison.
pub fn wave_verdict(lines: &[EngineLine]) -> String {
    let (d, w) = (&lines[0], &lines[1]);
    format!(
        "The wave engine: {} instead of {} anti-diagonals, {} instead of {}.",
        plural(w.steps, "score step", "score steps"),
        d.steps,
        plural(w.messages, "message", "messages"),
        d.messages
    )
}

/// Why the wave's steps are few, with this pair's numbers.
pub fn wave_note(lines: &[EngineLine]) -> String {
    let (d, w) = (&lines[0], &lines[1]);
    format!(
        "The diagonal engine steps through every anti-diagonal of the matrix ({}) and sends one \
         value per boundary cell; the wave engine takes one step per unit of cost ({}), \
         whatever the sequences' length, and after each step every rank sends each neighbour \
         one message with all the values the neighbour needs: its messages follow the \
         difference between the sequences, not their size. On similar sequences the cost is \
         small and the wave touches few cells; on unrelated ones it grows to the matrix's.",
        plural(d.steps, "step", "steps"),
        plural(w.steps, "step", "steps"),
    )
}

/// The introduction of a wave page, as paragraphs with formulas in backticks.
pub fn wave_intro(problem: Problem) -> Vec<String> {
    let base = intro(problem, false);
    let mut out = base[..2].to_vec();
    out.push(match problem {
        Problem::Edit => "The wave engine does not fill the matrix. Its score step `s` keeps, \
                          for each diagonal `k = j − i`, the furthest row `F[s][k]` a path of \
                          cost `s` reaches: `F[s][k] = slide(max(F[s−1][k] + 1, F[s−1][k+1] + \
                          1, F[s−1][k−1]))` (a substitution, a byte of x alone, a byte of y \
                          alone), where `slide` follows the matching bytes, which cost nothing. \
                          Every cell up to `F[s][k]` on its diagonal costs at most `s`."
            .to_owned(),
        Problem::Lcs => "The wave engine does not fill the matrix. It counts the indel \
                         distance `E = i + j + 2 − 2 M` (insertions and deletions only): its \
                         score step `s` keeps, for each diagonal `k = j − i`, the furthest row \
                         `F[s][k]` a path of cost `s` reaches: `F[s][k] = slide(max(F[s−1][k+1] \
                         + 1, F[s−1][k−1]))`, where `slide` follows the matching bytes, which \
                         cost nothing; the LCS is `(m + n − s) / 2` for the final cost `s`."
            .to_owned(),
    });
    out.push(
        "The fill ends at the first step whose furthest point on diagonal `n − m` is the last \
         cell: that step is the answer's cost. Only diagonals a path within the bound can use \
         are computed (the bound is the cost of an alignment found first), so the steps are \
         few on similar sequences, and cells far from every good path are never reached."
            .to_owned(),
    );
    out.push(
        "Across ranks: each step's diagonals are split into contiguous runs, one per rank, \
         once the step has at least 16 diagonals per rank (smaller steps stay on fewer ranks). \
         A rank computing its run of step `s` reads step `s − 1` on its run one diagonal wider \
         each way, so after each step every rank sends each neighbour one halo message with \
         the values the neighbour reads next: one message each way per neighbour and step, \
         empty when there is nothing to pass. With `--halo-steps H` the ranks exchange only \
         every few steps, at most `H` apart: each halo then carries what the neighbour reads \
         over the steps to the next exchange (its run one diagonal wider for each step), and \
         both ranks compute those diagonals (a ghost zone), so a run of `s` steps takes about \
         `s / H` messages each way."
            .to_owned(),
    );
    out.push(
        "The walk is every engine's: from the last cell back, each question (is the diagonal \
         cell one edit cheaper?) a look-up in the steps, `D(I, J) ≤ s` exactly when \
         `F[s][J − I] ≥ I`; when the walk strays into diagonals another rank keeps, it hops, \
         carrying the path so far."
            .to_owned(),
    );
    // What a message costs.
    out.push(base[3].clone());
    out
}

/// `p{first}` or `p{first}..p{last}`: the ranks from `first` to `ranks - 1`.
fn idle_names(first: usize, ranks: usize) -> String {
    if first + 1 == ranks {
        format!("p{first}")
    } else {
        format!("p{first}..p{}", ranks - 1)
    }
}

/// Why the bands engine gives fewer ranks a band than the run has: a band is whole words.
fn why_idle(pipe: &Pipeline) -> String {
    format!(
        "{} {} {} of {} columns, and a band is made of whole words: only {} of the {} ranks {} \
         one, {} none (a band for every rank takes at least {} columns)",
        plural(pipe.cols() as u64, "column", "columns"),
        if pipe.cols() == 1 { "is" } else { "are" },
        plural(pipe.total_words() as u64, "word", "words"),
        pipe.word(),
        pipe.active_ranks(),
        pipe.ranks(),
        if pipe.active_ranks() == 1 {
            "gets"
        } else {
            "get"
        },
        idle_names(pipe.active_ranks(), pipe.ranks()),
        pipe.word() * (pipe.ranks() - 1) + 1
    )
}

/// The bands engine's messages, bytes and stages for batches of 1, 2, 4, … rows up to the first
/// that holds every row, and for `pipe`'s own batch: the trade a teacher shows with `--batch`
/// (fewer messages and waits, but a longer pipeline to fill and drain).
pub fn batch_options(pipe: &Pipeline) -> Vec<BatchOption> {
    let m = pipe.rows().max(1);
    let mut batches: Vec<usize> =
        std::iter::successors(Some(1usize), |b| (*b < m).then(|| b.saturating_mul(2)))
            .chain([pipe.batch()])
            .collect();
    batches.sort_unstable();
    batches.dedup();
    batches
        .into_iter()
        .map(|batch| {
            let p = pipe.with_batch(batch);
            BatchOption {
                batch,
                messages: p.predicted_messages(),
                bytes: p.predicted_bytes(),
                sizes: p.message_sizes(),
                stages: p.stages() as u64,
            }
        })
        .collect()
}

/// The comparison in one line, for the strip a projector shows above the grid.
pub fn compare_line(lines: &[EngineLine]) -> String {
    let (d, b) = (&lines[0], &lines[1]);
    let engine = |l: &EngineLine| {
        format!(
            "{} {} in {}",
            l.engine,
            plural(l.messages, "message", "messages"),
            plural(l.steps, "wait", "waits")
        )
    };
    let mut out = format!("Messages: {} · {}", engine(d), engine(b));
    for l in [d, b] {
        if l.ranks_used < l.ranks {
            out += &format!(
                " — {} would use {} of {}",
                l.engine,
                plural(l.ranks_used as u64, "rank", "ranks"),
                l.ranks
            );
        }
    }
    out
}

/// The comparison's verdict on this input, in a sentence.
pub fn compare_verdict(lines: &[EngineLine]) -> String {
    let (d, b) = (&lines[0], &lines[1]);
    if b.ranks_used < 2 && b.ranks > 1 {
        format!(
            "Here the bands engine would send no message only because it would compute every \
             cell on p0 and leave {} idle.",
            idle_names(b.ranks_used.max(1), b.ranks)
        )
    } else if b.messages > 0 && d.messages >= 2 * b.messages {
        format!(
            "The bands engine: {} instead of {} ({} times fewer), {} instead of {}, {} instead of \
             {}.",
            plural(b.messages, "message", "messages"),
            d.messages,
            d.messages / b.messages,
            plural(b.bytes, "byte", "bytes"),
            d.bytes,
            plural(b.steps, "wait", "waits"),
            d.steps
        )
    } else {
        format!(
            "The bands engine: {} and {}, against {} and {}.",
            plural(b.messages, "message", "messages"),
            plural(b.steps, "wait", "waits"),
            plural(d.messages, "message", "messages"),
            plural(d.steps, "wait", "waits")
        )
    }
}

/// Why messages and waits cost, with this input's numbers.
pub fn compare_note(lines: &[EngineLine]) -> String {
    let (d, b) = (&lines[0], &lines[1]);
    format!(
        "Every message costs a latency (a few microseconds on one machine, more across a \
         network) whatever its size, and every step at which neighbours wait for each other \
         costs one more. The diagonal engine sends each boundary value alone and waits once per \
         diagonal ({}); the bands engine gathers a batch's carries into one message and waits \
         once per stage ({}), but its pipeline leaves a band idle while it fills and drains.",
        plural(d.steps, "step", "steps"),
        plural(b.steps, "step", "steps"),
    )
}

/// The introduction, as paragraphs of text with formulas in backticks.
pub fn intro(problem: Problem, bands: bool) -> Vec<String> {
    let mut out = vec![match problem {
        Problem::Lcs => "The problem: the longest common subsequence (LCS) of two byte strings x \
                         (down the left) and y (along the top): the longest string whose bytes \
                         appear in both, in order, not necessarily side by side."
            .to_owned(),
        Problem::Edit => {
            "The problem: the edit distance of two byte strings x (down the left) and \
                          y (along the top): the fewest substitutions, insertions and deletions \
                          that turn one into the other."
                .to_owned()
        }
    }];
    out.push(match problem {
        Problem::Lcs => "The recurrence: `M[i][j]`, the LCS length of x[0..=i] and y[0..=j], is \
                         `M[i−1][j−1] + 1` when `x[i] = y[j]`, else `max(M[i−1][j], M[i][j−1])`, \
                         with 0 outside the matrix. A cell needs its three neighbours up, left \
                         and up-left."
            .to_owned(),
        Problem::Edit => "The recurrence: `D[i][j]`, the edit distance of x[0..=i] and y[0..=j], \
                          is `D[i−1][j−1]` when `x[i] = y[j]`, else `1 + min(D[i−1][j−1], \
                          D[i−1][j], D[i][j−1])`, with `D[−1][j] = j + 1` and `D[i][−1] = i + 1`. \
                          A cell needs its three neighbours up, left and up-left."
            .to_owned(),
    });
    out.push(
        "Why diagonals: the cells of one anti-diagonal `d = i + j` need only cells of `d − 1` and \
         `d − 2`, never each other, so all of them can be computed at once, by as many ranks as \
         there are cells. The diagonal engine gives each rank a run of every diagonal."
            .to_owned(),
    );
    if bands {
        out.push(
            "The bands engine cuts the columns instead: each rank owns a band of whole 64-bit \
             words and computes 64 cells per word operation (the bits of a row are the steps \
             `M[i][j] − M[i][j−1]`). Along a row only an addition's carry passes from one band to \
             the next, so a band sends its right neighbour one message per batch of rows, and \
             the bands work as a pipeline: band k computes batch b while band k + 1 computes \
             batch b − 1."
                .to_owned(),
        );
    }
    out.push(
        "What a message costs: a latency, the same for 4 bytes or 4,000, plus the bytes. A value \
         its owner lacks must arrive before the cell can be computed, so a rank waits for its \
         neighbour: the fewer the messages and the waits, the faster."
            .to_owned(),
    );
    out.push(
        "What a hop costs: the traceback walks back from the bottom-right cell; when the next cell \
         belongs to another rank, one message carries the next cell (16 bytes) and the path so far \
         (8 bytes and a quarter of a byte per move) to that rank."
            .to_owned(),
    );
    out
}

/// The ranks without a band, and why.
pub fn idle_bands(pipe: &Pipeline) -> String {
    format!(
        "{}: no band: {} {} {} of {}, and a band is made of whole words",
        idle_names(pipe.active_ranks(), pipe.ranks()),
        plural(pipe.cols() as u64, "column", "columns"),
        if pipe.cols() == 1 { "is" } else { "are" },
        plural(pipe.total_words() as u64, "word", "words"),
        pipe.word()
    )
}

/// What a teaching word is.
pub fn teaching_word(pipe: &Pipeline) -> String {
    let words = pipe.cols().div_ceil(64) as u64;
    let bands = words.min(pipe.ranks() as u64);
    format!(
        "teaching word: {} columns per word, so that a small matrix shows every rank; the \
         engine's words are 64 columns (on this matrix: {}, {})",
        pipe.word(),
        plural(words, "word", "words"),
        plural(bands, "band", "bands")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_comparison_predicts_both_engines_for_a_schedule() {
        let lines = compare((11, 13, 3), Problem::Lcs, None, 256, None);
        let s = Schedule::new(11, 13, 3);
        assert_eq!(lines[0].messages, s.predicted_messages().total);
        assert_eq!(lines[0].bytes, 4 * lines[0].messages);
        assert_eq!(lines[0].steps, 23);
        // 13 columns are one word: one band, no message; the table says why.
        assert_eq!((lines[1].messages, lines[1].steps), (0, 1));
        assert_eq!((lines[1].ranks_used, lines[1].ranks), (1, 3));
        let why = lines[1].idle.as_deref().unwrap();
        assert!(
            why.starts_with("13 columns are 1 word of 64 columns")
                && why.contains("only 1 of the 3 ranks gets one, p1..p2 none"),
            "{why}"
        );
        let verdict = compare_verdict(&lines);
        assert!(verdict.contains("leave p1..p2 idle"), "{verdict}");
        let note = compare_note(&lines);
        assert!(
            note.contains("(1 step)") && !note.contains("1 steps"),
            "{note}"
        );
        assert!(compare_line(&lines).ends_with("bands would use 1 rank of 3"));
        // Every rank a diagonal cell, and a band each: nobody idle.
        let wide = compare((12, 200, 3), Problem::Lcs, None, 4, None);
        assert!(wide.iter().all(|l| l.idle.is_none() && l.ranks_used == 3));
        let short = compare((5, 8, 8), Problem::Lcs, None, 4, None);
        assert_eq!(short[0].ranks_used, 5);
        assert!(short[0]
            .idle
            .as_deref()
            .unwrap()
            .contains("p5..p7 own no cell"));
        let plan = BandPlan::new(11, 13, 3, 4);
        let pipe = Pipeline::with_word(&plan, 4);
        let lines = compare((11, 13, 3), Problem::Lcs, Some(&pipe), 256, None);
        assert_eq!(
            (lines[1].messages, lines[1].bytes, lines[1].steps),
            (6, 48, 5)
        );
        assert!(lines[1].setting.contains("teaching"));
        let verdict = compare_verdict(&lines);
        assert!(
            verdict.contains("6 messages instead of 42 (7 times fewer)"),
            "{verdict}"
        );
        for problem in [Problem::Lcs, Problem::Edit] {
            let text = intro(problem, true).join(" ");
            assert_eq!(text.contains("max("), problem == Problem::Lcs);
            assert_eq!(text.contains("min("), problem == Problem::Edit);
        }
        assert!(teaching_word(&pipe).starts_with("teaching word: 4 columns"));
        assert_eq!(
            idle_bands(&Pipeline::of_plan(&plan)),
            "p1..p2: no band: 13 columns are 1 word of 64, and a band is made of whole words"
        );
    }

    #[test]
    fn the_batch_options_follow_the_formulas() {
        let plan = BandPlan::new(300, 700, 4, 32);
        let pipe = Pipeline::of_plan(&plan);
        let options = batch_options(&pipe);
        let batches: Vec<usize> = options.iter().map(|o| o.batch).collect();
        assert_eq!(batches, [1, 2, 4, 8, 16, 32, 64, 128, 256, 512]);
        for o in &options {
            let plan = BandPlan::new(300, 700, 4, o.batch);
            assert_eq!(o.messages, 3 * 300u64.div_ceil(o.batch as u64));
            assert_eq!(o.messages, plan.predicted_messages());
            assert_eq!(o.bytes, plan.predicted_bytes());
            assert_eq!(o.stages, 300u64.div_ceil(o.batch as u64) + 3);
            let (count, bytes) = o
                .sizes
                .iter()
                .fold((0, 0), |(c, b), &(s, k)| (c + k, b + s * k));
            assert_eq!((count, bytes), (o.messages, o.bytes), "batch {}", o.batch);
        }
        // 128 rows a batch: two batches of two words, then one of 44 rows in one word.
        let at_128 = options.iter().find(|o| o.batch == 128).unwrap();
        assert_eq!(at_128.sizes, [(16, 6), (8, 3)]);
        let at_32 = options.iter().find(|o| o.batch == 32).unwrap();
        assert_eq!(at_32.sizes, [(8, 30)]);
        // An odd batch of the run's own is among them.
        let odd = Pipeline::of_plan(&BandPlan::new(300, 700, 4, 100));
        assert!(batch_options(&odd).iter().any(|o| o.batch == 100));
        assert_eq!(plural(1, "wait", "waits"), "1 wait");
        assert_eq!(plural(0, "wait", "waits"), "0 waits");
    }
}
