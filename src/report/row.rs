//! One run as one row of an experiment's CSV: the report flattened, the same columns for every
//! engine (empty where a column does not apply). Reading a result set back uses the same
//! struct, so the columns are defined once.

use serde::{Deserialize, Serialize};

use super::host_columns::host_columns;
use super::text::csv_header;
use super::{EngineKind, Margin, Report};
use crate::engines::bands::Checkpoint;
use crate::engines::diagonal::store::StoreKind;
use lcs_core::problem::Problem;

host_columns! {
    /// One run as one row of an experiment's CSV. Reading a result set back uses the same
    /// struct, so the columns are defined once.
    #[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
    pub struct Row {
        pub timestamp: String,
        pub commit: String,
        pub version: String,
        pub input: String,
        pub rows: u64,
        pub cols: u64,
        pub swapped: bool,
        /// Result sets written before the edit distance have no such column: LCS.
        #[serde(default)]
        pub problem: Problem,
        pub engine: EngineKind,
        pub store: Option<StoreKind>,
        pub batch: Option<usize>,
        pub checkpoint: Option<Checkpoint>,
        /// Result sets written before the diagonal band have no such column.
        #[serde(default)]
        pub band: Option<Margin>,
        #[serde(default)]
        pub band_doublings: Option<usize>,
        /// The wave engine's score steps (its final cost); result sets written before the wave
        /// engine have no such column.
        #[serde(default)]
        pub score_steps: Option<usize>,
        pub ranks: usize,
        /// Cells computed, summed over the ranks (`rows * cols` but for a diagonal band or the
        /// wave engine). Result sets written before the column read as empty.
        #[serde(default)]
        pub cells: Option<u64>,
        /// Empty for an edit run.
        pub lcs_length: Option<u64>,
        /// Empty for an LCS run.
        #[serde(default)]
        pub distance: Option<u64>,
        pub messages_boundary: u64,
        pub messages_traceback: u64,
        pub messages_control: u64,
        pub bytes_boundary: u64,
        pub bytes_traceback: u64,
        pub bytes_control: u64,
        pub predicted_boundary: u64,
        pub traceback_hops: u64,
        pub seconds_total: f64,
        pub seconds_fill: f64,
        pub seconds_traceback: f64,
        pub seconds_recompute: f64,
        /// The busiest rank's (longest fill) compute, receive-wait and send seconds.
        pub seconds_compute: f64,
        pub seconds_wait: f64,
        pub seconds_send: f64,
        pub max_peak_rss_bytes: u64,
    }
}

impl Row {
    /// The CSV header line (without its newline), derived from the struct.
    pub fn header() -> String {
        csv_header::<Row>()
    }

    /// Cells the run computed: its `cells`, or for a result set written before the column,
    /// the matrix's size (what such a run reported).
    pub fn computed_cells(&self) -> u64 {
        self.cells.unwrap_or(self.rows * self.cols)
    }

    /// The row of `report`.
    pub fn of(report: &Report) -> Row {
        let busiest = report
            .per_rank
            .iter()
            .max_by(|a, b| a.seconds_fill.total_cmp(&b.seconds_fill));
        let breakdown = busiest.map(|r| r.fill_breakdown).unwrap_or_default();
        host_columns!(Row {
            timestamp: report.run.timestamp.clone(),
            commit: report.run.commit.clone(),
            version: report.run.version.clone(),
            input: report.input.clone(),
            rows: report.rows as u64,
            cols: report.cols as u64,
            swapped: report.swapped,
            engine: report.engine,
            store: report.store,
            batch: report.batch,
            checkpoint: report.checkpoint,
            band: report.band,
            band_doublings: report.band_doublings,
            score_steps: report.score_steps,
            ranks: report.ranks,
            cells: Some(report.cells),
            problem: report.answer.problem,
            lcs_length: report.answer.lcs_length.map(|l| l as u64),
            distance: report.answer.distance.map(|d| d as u64),
            messages_boundary: report.messages.boundary,
            messages_traceback: report.messages.traceback,
            messages_control: report.messages.control,
            bytes_boundary: report.bytes.boundary,
            bytes_traceback: report.bytes.traceback,
            bytes_control: report.bytes.control,
            predicted_boundary: report.predicted.boundary,
            traceback_hops: report.traceback_hops,
            seconds_total: report.seconds.total,
            seconds_fill: report.seconds.fill,
            seconds_traceback: report.seconds.traceback,
            seconds_recompute: report.seconds.recompute,
            seconds_compute: breakdown.compute,
            seconds_wait: breakdown.wait_receive,
            seconds_send: breakdown.send,
            max_peak_rss_bytes: report
                .per_rank
                .iter()
                .map(|r| r.peak_rss_bytes)
                .max()
                .unwrap_or(0),
        } of &report.run)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn row_header_names_every_column_once() {
        let header = Row::header();
        let columns: Vec<&str> = header.split(',').collect();
        assert_eq!(columns[0], "timestamp");
        assert!(columns.contains(&"predicted_boundary"));
        assert!(columns.contains(&"mpi_library"));
        let mut unique = columns.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), columns.len(), "{header}");
    }

    #[test]
    fn rows_round_trip_through_csv() {
        let row = Row {
            input: "a,b \"quoted\".txt".into(),
            engine: EngineKind::Diagonal,
            store: Some(StoreKind::Hash),
            ranks: 4,
            seconds_total: 0.125,
            hosts: "n1 n2".into(),
            ..Row::default()
        };
        let mut w = csv::Writer::from_writer(Vec::new());
        w.serialize(&row).unwrap();
        w.serialize(Row::default()).unwrap();
        let bytes = w.into_inner().unwrap();
        let back: Vec<Row> = csv::Reader::from_reader(&bytes[..])
            .deserialize()
            .collect::<Result<_, _>>()
            .unwrap();
        assert_eq!(back, vec![row, Row::default()]);
    }
}
