//! What the classroom page teaches besides the run: the introduction a student reads first (the
//! problem, its recurrence, why a diagonal's cells are independent, what a message and a hop cost),
//! and the two engines' messages for the same input compared in one table (the lesson of message
//! aggregation): a count is the run's own where the run measured it, else the closed-form
//! prediction (which every run is tested to meet exactly); times appear only where measured. Texts
//! mark formulas with backticks, as the legends' words do.

use serde::Serialize;

use super::pipeline::Pipeline;
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
    let mut diagonal = EngineLine {
        engine: "diagonal",
        source: "predicted",
        setting: "one value per boundary cell".into(),
        messages: predicted,
        bytes: predicted * VALUE_BYTES as u64,
        steps: schedule.diagonals() as u64,
        seconds: None,
    };
    let plan = BandPlan::new(m, n, ranks, batch).with_problem(problem);
    let pipe = bands.copied().unwrap_or_else(|| Pipeline::of_plan(&plan));
    let mut banded = EngineLine {
        engine: "bands",
        source: "predicted",
        setting: format!(
            "batches of {} rows{}",
            pipe.batch(),
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

/// What the table says underneath: the lesson, with this input's numbers.
pub fn compare_note(lines: &[EngineLine]) -> String {
    let (d, b) = (&lines[0], &lines[1]);
    let ratio = if b.messages > 0 {
        format!(
            "{:.0} times fewer messages",
            d.messages as f64 / b.messages as f64
        )
    } else {
        "no message at all".into()
    };
    format!(
        "Every message costs a latency (a few microseconds on one machine, more across a \
         network) whatever its size, and every step at which neighbours wait for each other \
         costs one more. The diagonal engine sends each boundary value alone and waits once per \
         diagonal ({} steps); the bands engine gathers a batch's carries into one message and \
         waits once per stage ({} steps): {ratio} for {} bytes instead of {}.",
        d.steps, b.steps, b.bytes, d.bytes
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
    let first = pipe.active_ranks();
    let who = if first + 1 == pipe.ranks() {
        format!("p{first}")
    } else {
        format!("p{first}..p{}", pipe.ranks() - 1)
    };
    format!(
        "{who}: no band: {} columns are {} word{} of {}, and a band is made of whole words",
        pipe.cols(),
        pipe.total_words(),
        if pipe.total_words() == 1 { "" } else { "s" },
        pipe.word()
    )
}

/// What a teaching word is.
pub fn teaching_word(pipe: &Pipeline) -> String {
    format!(
        "teaching word: {} columns per word, so that a small matrix shows every rank; the engine's \
         words are 64 columns (on this matrix: {} word{}, {} band{})",
        pipe.word(),
        pipe.cols().div_ceil(64),
        if pipe.cols().div_ceil(64) == 1 { "" } else { "s" },
        pipe.cols().div_ceil(64).min(pipe.ranks()),
        if pipe.cols().div_ceil(64).min(pipe.ranks()) == 1 { "" } else { "s" }
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
        // 13 columns are one word: one band, no message.
        assert_eq!((lines[1].messages, lines[1].steps), (0, 1));
        let plan = BandPlan::new(11, 13, 3, 4);
        let pipe = Pipeline::with_word(&plan, 4);
        let lines = compare((11, 13, 3), Problem::Lcs, Some(&pipe), 256, None);
        assert_eq!(
            (lines[1].messages, lines[1].bytes, lines[1].steps),
            (6, 48, 5)
        );
        assert!(lines[1].setting.contains("teaching"));
        let note = compare_note(&lines);
        assert!(note.contains("times fewer messages"), "{note}");
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
}
