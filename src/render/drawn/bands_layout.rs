//! Where everything of a bands picture goes: the detail it is drawn at (cell by cell, or, when a
//! cell would be smaller than [`MIN_DRAWN_CELL`] or there are more than [`MAX_DRAWN_CELLS`], one
//! block per band and batch, to scale), the cells' width and height (not square: a band is at
//! least a word wide, so a run's grid is wide and flat and its cells are stretched to keep the
//! rows readable), the gap between two bands where their fence stands, and the grid's geometry the
//! page reads from the picture's root.

use std::ops::Range;

use super::layout::{Geometry, MARGIN, TITLE_PX};
use super::xml::num;
use crate::render::shown::pipeline::Pipeline;

/// Most cells drawn one by one; beyond, blocks of bands and batches.
pub const MAX_DRAWN_CELLS: usize = 8192;
/// Smallest side of a cell drawn one by one, in picture units.
pub const MIN_DRAWN_CELL: f64 = 3.0;

/// Room for the grid, in picture units.
const GRID_WIDTH: f64 = 760.0;
const GRID_HEIGHT: f64 = 400.0;
/// The gap between two bands, where their fence stands.
pub(super) const GAP: f64 = 8.0;

/// How the grid is drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Detail {
    /// Cell by cell.
    Cells,
    /// A block per band and batch.
    Blocks,
}

impl Detail {
    /// The detail `pipe` is drawn at.
    pub fn of(pipe: &Pipeline) -> Detail {
        let (w, h) = cell_sides(pipe);
        let cells = pipe.rows().saturating_mul(pipe.cols());
        if cells <= MAX_DRAWN_CELLS && w >= MIN_DRAWN_CELL && h >= MIN_DRAWN_CELL {
            Detail::Cells
        } else {
            Detail::Blocks
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Detail::Cells => "cells",
            Detail::Blocks => "blocks",
        }
    }
}

/// A cell's width and height before any is made square.
fn cell_sides(pipe: &Pipeline) -> (f64, f64) {
    let (m, n) = (pipe.rows().max(1), pipe.cols().max(1));
    let gaps = pipe.active_ranks().saturating_sub(1) as f64 * GAP;
    (
        ((GRID_WIDTH - gaps) / n as f64).min(56.0),
        (GRID_HEIGHT / m as f64).min(56.0),
    )
}

/// One band's batch of rows: the cells the band computes at one stage, and where they are.
pub(super) struct Block {
    pub(super) batch: usize,
    pub(super) rank: usize,
    pub(super) rows: Range<usize>,
    pub(super) x: f64,
    pub(super) y: f64,
    pub(super) width: f64,
    pub(super) height: f64,
}

/// Positions of a bands grid.
pub(super) struct BandsLayout {
    pipe: Pipeline,
    pub(super) detail: Detail,
    pub(super) cell_w: f64,
    pub(super) cell_h: f64,
    pub(super) grid_x: f64,
    pub(super) grid_y: f64,
    pub(super) cell_text: bool,
    pub(super) value_px: f64,
    pub(super) width: f64,
    /// Bottom of the grid (the timeline starts below).
    pub(super) grid_bottom: f64,
}

impl Geometry for BandsLayout {
    fn centre(&self, i: usize, j: usize) -> (f64, f64) {
        (self.x(j) + 0.5 * self.cell_w, self.y(i) + 0.5 * self.cell_h)
    }

    fn value_px(&self) -> f64 {
        self.value_px
    }

    fn side(&self) -> f64 {
        self.cell_w.min(self.cell_h)
    }

    fn walk_width(&self) -> f64 {
        match self.detail {
            Detail::Cells => (self.side() * 0.1).clamp(1.5, 3.0),
            Detail::Blocks => 2.5,
        }
    }

    fn disc(&self) -> f64 {
        self.side() * 0.36
    }

    fn hop_width(&self) -> f64 {
        (self.side() * 0.2).clamp(3.0, 8.0)
    }

    fn cell_marks(&self) -> bool {
        self.detail == Detail::Cells
    }
}

impl BandsLayout {
    pub(super) fn new(pipe: &Pipeline, full: bool, labelled: bool) -> BandsLayout {
        let detail = Detail::of(pipe);
        let (mut cell_w, mut cell_h) = cell_sides(pipe);
        if cell_w >= 20.0 && cell_h >= 20.0 {
            cell_w = cell_w.min(cell_h);
            cell_h = cell_w;
        }
        let cell_text = detail == Detail::Cells && cell_w >= 22.0 && cell_h >= 18.0;
        let title = if full { TITLE_PX + 16.0 } else { 0.0 };
        let grid_y = MARGIN + title + 60.0 + if labelled { 0.0 } else { -20.0 };
        let grid_x = MARGIN + 110.0;
        let grid_bottom = grid_y + cell_h * pipe.rows() as f64;
        let gaps = pipe.active_ranks().saturating_sub(1) as f64 * GAP;
        BandsLayout {
            pipe: *pipe,
            detail,
            cell_w,
            cell_h,
            grid_x,
            grid_y,
            cell_text,
            value_px: (cell_w.min(cell_h) * 0.42).clamp(9.5, 18.0),
            width: grid_x + cell_w * pipe.cols() as f64 + gaps + 60.0,
            grid_bottom,
        }
    }

    /// The left edge of column `j` (bands after the first start a gap further right).
    pub(super) fn x(&self, j: usize) -> f64 {
        let band = if j < self.pipe.cols() {
            self.pipe.owner_of_col(j)
        } else {
            self.pipe.active_ranks().saturating_sub(1)
        };
        self.grid_x + j as f64 * self.cell_w + band as f64 * GAP
    }

    pub(super) fn y(&self, i: usize) -> f64 {
        self.grid_y + i as f64 * self.cell_h
    }

    /// Left and right edges of band `k`.
    pub(super) fn band_edges(&self, k: usize) -> (f64, f64) {
        let cols = self.pipe.cols_of(k);
        let left = self.x(cols.start);
        (left, left + cols.len() as f64 * self.cell_w)
    }

    /// Each band's batch of rows, batch by batch and band by band, with its place.
    pub(super) fn blocks(&self) -> impl Iterator<Item = Block> + '_ {
        let pipe = &self.pipe;
        (0..pipe.batches()).flat_map(move |batch| {
            (0..pipe.active_ranks()).map(move |rank| {
                let rows = pipe.batch_rows(batch);
                let (left, right) = self.band_edges(rank);
                Block {
                    batch,
                    rank,
                    x: left,
                    y: self.y(rows.start),
                    width: right - left,
                    height: rows.len() as f64 * self.cell_h,
                    rows,
                }
            })
        })
    }

    /// The geometry the page reads from the picture's root.
    pub(super) fn root_attributes(&self) -> Vec<(&'static str, String)> {
        vec![
            ("data-grid-x", num(self.grid_x)),
            ("data-grid-y", num(self.grid_y)),
            ("data-cell-w", self.cell_w.to_string()),
            ("data-cell-h", self.cell_h.to_string()),
            ("data-gap", num(GAP)),
            ("data-detail", self.detail.name().into()),
        ]
    }
}
