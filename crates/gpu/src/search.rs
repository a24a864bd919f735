//! The approximate search on a device: every end within `k` edits of each pattern in a window
//! of text, the window cut in chunks, a work-item per pattern and chunk (`kernels/search.cl`).
//!
//! A chunk starts from a fresh column `m + min(k, m)` bytes before its first byte, as the CPU's
//! parts of a text do ([`lcs_core::search::chunks::overlap`]), so a window holds no state from
//! the one before: the caller hands the bytes before the ends it wants (`from`) with the window.
//! The patterns' tables go to the device once; they go by size, one build per number of words
//! ([`crate::pairs::CLASSES`]), a pattern longer than the largest in stripes of it. The hits come
//! back in a buffer sized for the window, and a window that finds more is run again with room
//! for them all.

use std::collections::BTreeMap;

use lcs_core::search::lanes::Hit;

use crate::device::{Arg, Buffer, Gpu, GpuError};
use crate::pairs::{largest_class, table, CLASSES, GROUP};
use crate::source::Kernel;

/// A search's rows: the text's bytes as they are.
const SIGMA: usize = 256;
/// Hits the first run of a window has room for (12 bytes each).
const FIRST_CAPACITY: usize = 1 << 20;

/// The patterns of a search on the device, ready to scan windows.
pub struct Searcher {
    /// The caller's number of each pattern, in the device's order.
    numbers: Vec<usize>,
    lengths: Vec<usize>,
    k: usize,
    /// Work-groups' patterns by class (words of a stripe); the long ones apart.
    classes: BTreeMap<usize, Vec<u32>>,
    long: Vec<u32>,
    cap: usize,
    group: usize,
    /// Bytes of text a work-item ends its matches in.
    chunk: usize,
    /// The longest warm-up a chunk scans before its own bytes.
    warm: usize,
    pattern_len: Buffer,
    tables: Buffer,
    table_at: Buffer,
    text: Option<Buffer>,
    hits: Option<Buffer>,
    carries: Option<Buffer>,
    found: Buffer,
    capacity: usize,
}

impl Searcher {
    /// Puts `patterns` (the caller's numbers and bytes, each at least a byte) on `gpu`,
    /// reporting ends within `k` edits.
    pub fn new(gpu: &mut Gpu, patterns: &[(usize, &[u8])], k: usize) -> Result<Searcher, GpuError> {
        let cap = largest_class(SIGMA, gpu.info().local_memory);
        let group = GROUP.min(gpu.info().max_group).max(1);
        let identity: Vec<u8> = (0..=255).collect::<Vec<u8>>();
        let code: [u8; 256] = identity.try_into().expect("256 bytes");
        let (mut tables, mut table_at, mut lengths) = (Vec::new(), Vec::new(), Vec::new());
        let mut classes: BTreeMap<usize, Vec<u32>> = BTreeMap::new();
        let mut long = Vec::new();
        for (i, (_, p)) in patterns.iter().enumerate() {
            assert!(!p.is_empty(), "a pattern of at least a byte");
            table_at.push(tables.len() as u64);
            table(p, &code, SIGMA, &mut tables);
            lengths.push(p.len());
            let w = p.len().div_ceil(64);
            match CLASSES.iter().find(|&&c| c >= w && c <= cap) {
                Some(&c) => classes.entry(c).or_default().push(i as u32),
                None => long.push(i as u32),
            }
        }
        let warm = lengths.iter().map(|&m| m + k.min(m)).max().unwrap_or(0);
        gpu.check_fits(
            8 * tables.len() as u64,
            8 * tables.len() as u64,
            "the patterns' tables",
        )?;
        let lens: Vec<u32> = lengths.iter().map(|&m| m as u32).collect();
        Ok(Searcher {
            numbers: patterns.iter().map(|&(n, _)| n).collect(),
            lengths,
            k,
            classes,
            long,
            cap,
            group,
            chunk: (4 * warm).next_power_of_two().max(256),
            warm,
            pattern_len: gpu.upload(&lens)?,
            tables: gpu.upload(&tables)?,
            table_at: gpu.upload(&table_at)?,
            text: None,
            hits: None,
            carries: None,
            found: gpu.zeroed::<u32>(1)?,
            capacity: 0,
        })
    }

    /// Appends to `hits` every end in `window[from..]` within `k` edits of a pattern, its end
    /// counted (exclusive) from `base`, the record offset of `window[0]`. The window starts at
    /// its record's start or holds the longest `m + min(k, m)` bytes before `from`.
    pub fn scan(
        &mut self,
        gpu: &mut Gpu,
        window: &[u8],
        base: u64,
        from: usize,
        hits: &mut Vec<Hit>,
    ) -> Result<(), GpuError> {
        if from >= window.len() || self.numbers.is_empty() {
            return Ok(());
        }
        let len = u32::try_from(window.len()).expect("a window of less than 4 GiB");
        let chunks = window.len().div_ceil(self.chunk);
        self.room(gpu, window.len(), chunks)?;
        gpu.write(self.text.as_ref().expect("a text buffer"), window)?;
        let mut capacity = self.capacity.max(FIRST_CAPACITY);
        loop {
            self.make_hits(gpu, capacity)?;
            gpu.write(&self.found, &[0u32])?;
            self.launch_all(gpu, len, from as u32, chunks)?;
            let found = gpu.download::<u32>(&self.found, 1)?[0] as usize;
            if found <= capacity {
                let words = gpu.download::<u32>(self.hits.as_ref().expect("hits"), 3 * found)?;
                hits.extend(words.chunks_exact(3).map(|h| Hit {
                    pattern: self.numbers[h[0] as usize],
                    end: base + u64::from(h[1]) + 1,
                    distance: h[2] as usize,
                }));
                return Ok(());
            }
            capacity = found;
        }
    }

    /// Buffers for a window of `len` bytes in `chunks` chunks: the text, and the long patterns'
    /// carries.
    fn room(&mut self, gpu: &mut Gpu, len: usize, chunks: usize) -> Result<(), GpuError> {
        if self.text.as_ref().is_none_or(|b| b.bytes < len) {
            if let Some(b) = self.text.take() {
                gpu.release(b);
            }
            gpu.check_fits(len as u64, len as u64, "a window of text")?;
            self.text = Some(gpu.zeroed::<u8>(len)?);
        }
        if !self.long.is_empty() {
            let items = self.long.len() * chunks.div_ceil(self.group) * self.group;
            let bytes = items * (self.chunk + self.warm);
            if self.carries.as_ref().is_none_or(|b| b.bytes < bytes) {
                if let Some(b) = self.carries.take() {
                    gpu.release(b);
                }
                gpu.check_fits(bytes as u64, bytes as u64, "the long patterns' carries")?;
                self.carries = Some(gpu.zeroed::<u8>(bytes)?);
            }
        }
        Ok(())
    }

    /// A hits buffer with room for `capacity` hits.
    fn make_hits(&mut self, gpu: &mut Gpu, capacity: usize) -> Result<(), GpuError> {
        if self.hits.is_none() || capacity > self.capacity {
            if let Some(b) = self.hits.take() {
                gpu.release(b);
            }
            let bytes = 12 * capacity as u64;
            gpu.check_fits(bytes, bytes, "the window's matches")?;
            self.hits = Some(gpu.zeroed::<u32>(3 * capacity)?);
            self.capacity = capacity;
        }
        Ok(())
    }

    /// Every class's launch over the window, the long patterns stripe by stripe.
    fn launch_all(
        &self,
        gpu: &mut Gpu,
        len: u32,
        from: u32,
        chunks: usize,
    ) -> Result<(), GpuError> {
        let longest = self
            .long
            .iter()
            .map(|&p| self.lengths[p as usize].div_ceil(64))
            .max()
            .unwrap_or(0);
        let mut launches: Vec<(usize, &[u32], usize)> = self
            .classes
            .iter()
            .map(|(&c, list)| (c, &list[..], 1))
            .collect();
        if !self.long.is_empty() {
            launches.push((self.cap, &self.long, longest.div_ceil(self.cap)));
        }
        for (class, patterns, stripes) in launches {
            let program = gpu.program(
                Kernel::Search,
                &[("WORDS", class as u64), ("SIGMA", SIGMA as u64)],
            )?;
            let mut groups: Vec<u32> = Vec::new();
            for &p in patterns {
                for first in (0..chunks).step_by(self.group) {
                    let count = self.group.min(chunks - first);
                    groups.extend([p, first as u32, count as u32]);
                }
            }
            let list = gpu.upload(&groups)?;
            let placeholder = match self.carries {
                None => Some(gpu.zeroed::<u8>(1)?),
                Some(_) => None,
            };
            let carries = self
                .carries
                .as_ref()
                .or(placeholder.as_ref())
                .expect("carries");
            let launched = (0..stripes).try_for_each(|stripe| {
                let args = [
                    Arg::Buffer(self.text.as_ref().expect("a text buffer")),
                    Arg::U32(len),
                    Arg::U32(from),
                    Arg::Buffer(&self.pattern_len),
                    Arg::Buffer(&self.tables),
                    Arg::Buffer(&self.table_at),
                    Arg::Buffer(&list),
                    Arg::U32(self.chunk as u32),
                    Arg::U32(self.k.min(u32::MAX as usize) as u32),
                    Arg::U32(stripe as u32),
                    Arg::Buffer(carries),
                    Arg::U32((self.chunk + self.warm) as u32),
                    Arg::Buffer(self.hits.as_ref().expect("hits")),
                    Arg::U32(self.capacity as u32),
                    Arg::Buffer(&self.found),
                ];
                gpu.launch(program, groups.len() / 3, self.group, &args)
            });
            gpu.release(list);
            if let Some(b) = placeholder {
                gpu.release(b);
            }
            launched?;
        }
        Ok(())
    }

    /// Gives the device's buffers back.
    pub fn release(self, gpu: &mut Gpu) {
        let buffers = [
            Some(self.pattern_len),
            Some(self.tables),
            Some(self.table_at),
        ];
        for b in buffers
            .into_iter()
            .chain([self.text, self.hits, self.carries, Some(self.found)])
            .flatten()
        {
            gpu.release(b);
        }
    }
}
