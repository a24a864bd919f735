//! A share of a pairs plan (`lcs_core::pairs::plan`) on a device: the same jobs the CPU's
//! [`work::run`] takes, their values handed on through [`work::hand`] in the same order, so a
//! rank's output and messages do not change with the device.
//!
//! The sequences go to the device once, each byte as its code in the run's alphabet (the byte
//! values present, `SIGMA` of them: the rows of a match table). The jobs go in batches of at
//! most [`BATCH_PAIRS`] pairs, a job cut between targets where it is larger; in a batch each
//! lane-side member (the pattern) meets its targets as a *strip*, cut into work-groups of up
//! to [`GROUP`] targets, and the patterns go by size: one build per number of words
//! ([`CLASSES`]) a pattern's table holds in local memory, a longer pattern in stripes of the
//! largest, one launch each. A batch's values come back together and are handed on, in this
//! thread, while a thread of the device's computes the next batch.

use std::collections::HashMap;

use lcs_core::pairs::plan::{Job, Plan};
use lcs_core::pairs::work::{self, Item, Share, Tally};
use lcs_core::problem::Problem;

use crate::device::{Arg, Buffer, Gpu, GpuError};
use crate::source::Kernel;

/// Work-items in a work-group: a pattern against this many targets.
pub const GROUP: usize = 64;
/// The word counts a build holds a pattern's stripe in: a pattern takes the least that holds
/// it, and a longer one stripes of the largest the device's local memory holds.
pub const CLASSES: [usize; 5] = [1, 2, 4, 8, 16];
/// The most pairs in a batch (their values, 4 bytes each, come back together).
pub const BATCH_PAIRS: u64 = 1 << 22;
/// The most bytes of carries between stripes in a batch: a byte per column of each pair whose
/// pattern takes several stripes.
pub const BATCH_CARRIES: u64 = 256 << 20;

/// The kernel's "no bound".
const NO_BOUND: u32 = u32::MAX;

/// The byte values of a run, coded 0 .. `size` in order: the rows of a match table.
struct Alphabet {
    code: [u8; 256],
    size: usize,
}

impl Alphabet {
    fn of<'a>(sequences: impl Iterator<Item = &'a [u8]>) -> Alphabet {
        let mut seen = [false; 256];
        for s in sequences {
            for &b in s {
                seen[b as usize] = true;
            }
        }
        let mut code = [0u8; 256];
        let mut size = 0;
        for (b, _) in seen.iter().enumerate().filter(|(_, &s)| s) {
            code[b] = size as u8;
            size += 1;
        }
        // At least two rows: PoCL (3.1) compiles a kernel whose local table is a single word
        // to nothing.
        Alphabet {
            code,
            size: size.max(2),
        }
    }
}

/// Words of a pattern of `m` bytes.
fn words(m: usize) -> usize {
    m.div_ceil(64)
}

/// Appends the match table of `pattern` (coded by `code`): `rows` rows of its words, row by
/// row; bit `i` of word `w` of row `c` set where byte `64 w + i` has code `c`.
pub fn table(pattern: &[u8], code: &[u8; 256], rows: usize, out: &mut Vec<u64>) {
    let w = words(pattern.len());
    let at = out.len();
    out.resize(at + rows * w, 0);
    for (i, &b) in pattern.iter().enumerate() {
        out[at + code[b as usize] as usize * w + i / 64] |= 1 << (i % 64);
    }
}

/// The largest class whose tables (`sigma` rows) fit in `local` bytes of local memory.
pub(crate) fn largest_class(sigma: usize, local: u64) -> usize {
    CLASSES
        .iter()
        .copied()
        .rev()
        .find(|&c| (sigma * c * 8) as u64 + 1024 <= local)
        .unwrap_or(1)
}

/// The sequences on the device: every lane-side sequence, then (unless all against all, where
/// the two sides are one set) every scanned one, and the scanned side's numbers in the plan's
/// order.
struct Resident {
    codes: Buffer,
    seq_at: Buffer,
    seq_len: Buffer,
    scanned: Buffer,
    bytes: u64,
}

/// A member's targets in a batch: positions `t0 .. t1` of the scanned side, their values at
/// `slot ..`.
struct Strip {
    p: usize,
    t0: usize,
    t1: usize,
    slot: usize,
}

/// What the device did for a share, beside the CPU's tally.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Counts {
    pub batches: u64,
    pub pairs: u64,
}

/// The most a batch holds: pairs, and bytes of carries between stripes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    pub pairs: u64,
    pub carries: u64,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            pairs: BATCH_PAIRS,
            carries: BATCH_CARRIES,
        }
    }
}

/// Runs `jobs` of `share` on `gpu`, calling `emit` with every item's values in the plan's
/// order, as [`work::run`] does. The device works in a thread of its own, a batch ahead: while
/// this thread hands one batch's values on, the device computes the next.
pub fn run(
    gpu: &mut Gpu,
    share: &Share<'_>,
    jobs: &[Job],
    emit: &mut dyn FnMut(&Item, &[u32]),
) -> Result<(Tally, Counts), GpuError> {
    run_in_batches(gpu, share, jobs, Limits::default(), emit)
}

/// [`run`] in batches of at most `limits` (the tests cut them small).
pub fn run_in_batches(
    gpu: &mut Gpu,
    share: &Share<'_>,
    jobs: &[Job],
    limits: Limits,
    emit: &mut dyn FnMut(&Item, &[u32]),
) -> Result<(Tally, Counts), GpuError> {
    let plan = share.plan;
    let all = plan.ask.all_against_all;
    let sides: Vec<&[u8]> = match all {
        true => share.lane_side.to_vec(),
        false => share
            .lane_side
            .iter()
            .chain(share.scanned_side)
            .copied()
            .collect(),
    };
    let alphabet = Alphabet::of(sides.iter().copied());
    let resident = upload_sequences(gpu, plan, &sides, &alphabet, share.lane_side.len())?;
    // A batch takes at most a quarter of what the device has left for its values and lists
    // (some 16 bytes a pair), and a quarter for its carries.
    let info = gpu.info();
    let room = info
        .free_memory
        .unwrap_or(info.memory)
        .saturating_sub(resident.bytes)
        / 4;
    let limits = Limits {
        pairs: limits.pairs.min(room / 16).max(1),
        carries: limits.carries.min(room).max(1),
    };
    let batches = Batches {
        share,
        alphabet: &alphabet,
        resident: &resident,
        cap: largest_class(alphabet.size, gpu.info().local_memory),
        group: GROUP.min(gpu.info().max_group).max(1),
        limits,
    };
    let cut = batches.cut(jobs);
    let mut tally = Tally::default();
    let mut counts = Counts::default();
    let result = std::thread::scope(|scope| {
        // One batch waits while the next computes: two batches' values at most in memory.
        let (done, ready) = std::sync::mpsc::sync_channel(1);
        let (cut, batches, device) = (&cut, &batches, &mut *gpu);
        scope.spawn(move || {
            for batch in cut {
                let computed = batches.compute(device, batch);
                let failed = computed.is_err();
                if done.send(computed).is_err() || failed {
                    break;
                }
            }
        });
        for (batch, computed) in cut.iter().zip(ready) {
            let Computed {
                strips,
                values,
                word_steps,
            } = computed?;
            tally.word_steps += word_steps;
            counts.batches += 1;
            counts.pairs += values.len() as u64;
            hand(plan, batch, &strips, &values, emit, &mut tally);
        }
        Ok(())
    });
    for b in [
        resident.codes,
        resident.seq_at,
        resident.seq_len,
        resident.scanned,
    ] {
        gpu.release(b);
    }
    result.map(|()| (tally, counts))
}

fn upload_sequences(
    gpu: &mut Gpu,
    plan: &Plan,
    sides: &[&[u8]],
    alphabet: &Alphabet,
    lanes: usize,
) -> Result<Resident, GpuError> {
    let total: usize = sides.iter().map(|s| s.len()).sum();
    let bytes = total as u64 + 12 * sides.len() as u64 + 4 * plan.scanned.len() as u64;
    gpu.check_fits(bytes, total as u64, "the sequences")?;
    let mut codes = Vec::with_capacity(total);
    let mut seq_at = Vec::with_capacity(sides.len());
    let mut seq_len = Vec::with_capacity(sides.len());
    for s in sides {
        seq_at.push(codes.len() as u64);
        seq_len.push(u32::try_from(s.len()).expect("a sequence of less than 4 GiB"));
        codes.extend(s.iter().map(|&b| alphabet.code[b as usize]));
    }
    let offset = if plan.ask.all_against_all { 0 } else { lanes };
    let scanned: Vec<u32> = plan.scanned.iter().map(|&j| (offset + j) as u32).collect();
    Ok(Resident {
        codes: gpu.upload(&codes)?,
        seq_at: gpu.upload(&seq_at)?,
        seq_len: gpu.upload(&seq_len)?,
        scanned: gpu.upload(&scanned)?,
        bytes,
    })
}

/// What a share's batches are computed from.
struct Batches<'a, 's> {
    share: &'a Share<'s>,
    alphabet: &'a Alphabet,
    resident: &'a Resident,
    /// The largest class (words of a stripe).
    cap: usize,
    group: usize,
    limits: Limits,
}

/// A batch's values, by slot, and what tells which pair each is.
struct Computed {
    strips: Vec<Vec<Strip>>,
    values: Vec<u32>,
    word_steps: u64,
}

/// A batch laid out for the device: its patterns and their tables, the work-groups of each
/// class (the long patterns' apart, in `stripes` stripes), the long pairs' carries.
struct Layout {
    strips: Vec<Vec<Strip>>,
    patterns: Vec<u32>,
    tables: Vec<u64>,
    table_at: Vec<u64>,
    groups: HashMap<usize, Vec<u32>>,
    long_groups: Vec<u32>,
    stripes: usize,
    carry_at: Vec<u64>,
    carries: u64,
    slots: usize,
    word_steps: u64,
}

impl Batches<'_, '_> {
    /// Cuts `jobs` into batches, a job between targets where it does not fit in one.
    fn cut(&self, jobs: &[Job]) -> Vec<Vec<Job>> {
        let plan = self.share.plan;
        let mut batches = Vec::new();
        let mut batch: Vec<Job> = Vec::new();
        let (mut pairs, mut carries) = (0u64, 0u64);
        for job in jobs {
            let long = self.first_long(job.unit);
            let mut start = job.targets.start;
            for t in job.targets.clone() {
                let valid = plan.valid(job.unit, t);
                let add = valid.len() as u64;
                let longs = valid.end.saturating_sub(valid.start.max(long)) as u64;
                let carry = longs * plan.scan_len(t) as u64;
                let limits = self.limits;
                if pairs > 0 && (pairs + add > limits.pairs || carries + carry > limits.carries) {
                    if t > start {
                        batch.push(Job {
                            unit: job.unit,
                            targets: start..t,
                        });
                        start = t;
                    }
                    batches.push(std::mem::take(&mut batch));
                    (pairs, carries) = (0, 0);
                }
                pairs += add;
                carries += carry;
            }
            if start < job.targets.end {
                batch.push(Job {
                    unit: job.unit,
                    targets: start..job.targets.end,
                });
            }
        }
        if !batch.is_empty() {
            batches.push(batch);
        }
        batches
    }

    /// The first member of `unit` (sorted by length) that takes several stripes.
    fn first_long(&self, unit: usize) -> usize {
        let plan = self.share.plan;
        let members = plan.units[unit].members.clone();
        let limit = self.cap * 64;
        members.start
            + members
                .clone()
                .take_while(|&p| plan.lane_len(p) <= limit)
                .count()
    }

    /// The class of a pattern of `m` bytes: the least that holds it, else the largest (in
    /// stripes).
    fn class(&self, m: usize) -> usize {
        let w = words(m);
        CLASSES
            .iter()
            .copied()
            .find(|&c| c >= w && c <= self.cap)
            .unwrap_or(self.cap)
    }

    /// Lays `batch` out: each member's strip of each job, their slots in order, and what the
    /// device needs for them.
    fn layout(&self, batch: &[Job]) -> Layout {
        let plan = self.share.plan;
        let all = plan.ask.all_against_all;
        let mut strips: Vec<Vec<Strip>> = Vec::with_capacity(batch.len());
        let mut slots = 0usize;
        for job in batch {
            let members = plan.units[job.unit].members.clone();
            let mut mine = Vec::with_capacity(members.len());
            for p in members {
                let t0 = match all {
                    true => job.targets.start.max(p + 1),
                    false => job.targets.start,
                };
                let t1 = job.targets.end;
                if t0 < t1 {
                    mine.push(Strip {
                        p,
                        t0,
                        t1,
                        slot: slots,
                    });
                    slots += t1 - t0;
                }
            }
            strips.push(mine);
        }
        let mut layout = Layout {
            strips: Vec::new(),
            patterns: Vec::new(),
            tables: Vec::new(),
            table_at: Vec::new(),
            groups: HashMap::new(),
            long_groups: Vec::new(),
            stripes: 1,
            carry_at: Vec::new(),
            carries: 0,
            slots,
            word_steps: 0,
        };
        let mut number: HashMap<usize, u32> = HashMap::new();
        for strip in strips.iter().flatten() {
            let member = self.share.lane_side[plan.lanes[strip.p]];
            let l = &mut layout;
            let i = *number.entry(strip.p).or_insert_with(|| {
                l.patterns.push(plan.lanes[strip.p] as u32);
                l.table_at.push(l.tables.len() as u64);
                table(
                    member,
                    &self.alphabet.code,
                    self.alphabet.size,
                    &mut l.tables,
                );
                (l.patterns.len() - 1) as u32
            });
            let long = words(member.len()) > self.cap;
            if long {
                l.stripes = l.stripes.max(words(member.len()).div_ceil(self.cap));
                l.carry_at.resize(slots, 0);
                for t in strip.t0..strip.t1 {
                    l.carry_at[strip.slot + t - strip.t0] = l.carries;
                    l.carries += plan.scan_len(t) as u64;
                }
            }
            let list = match long {
                true => &mut l.long_groups,
                false => l.groups.entry(self.class(member.len())).or_default(),
            };
            for first in (strip.t0..strip.t1).step_by(self.group) {
                let count = self.group.min(strip.t1 - first);
                let slot = strip.slot + first - strip.t0;
                list.extend([i, first as u32, count as u32, slot as u32]);
            }
            let steps: u64 = (strip.t0..strip.t1).map(|t| plan.scan_len(t) as u64).sum();
            l.word_steps += words(member.len()) as u64 * steps;
        }
        layout.strips = strips;
        layout
    }

    /// Lays `batch` out and runs it on `gpu`: its groups class by class (the long ones stripe
    /// by stripe), its values read back.
    fn compute(&self, gpu: &mut Gpu, batch: &[Job]) -> Result<Computed, GpuError> {
        let layout = self.layout(batch);
        let listed: usize =
            layout.long_groups.len() + layout.groups.values().map(Vec::len).sum::<usize>();
        let need = self.resident.bytes
            + 8 * (layout.tables.len() + layout.table_at.len() + layout.carry_at.len()) as u64
            + 4 * (layout.patterns.len() + layout.slots + listed) as u64
            + layout.carries;
        let largest = layout.carries.max(8 * layout.tables.len() as u64);
        gpu.check_fits(need, largest, "a batch of pairs")?;
        let values = self.launch(gpu, &layout)?;
        Ok(Computed {
            strips: layout.strips,
            values,
            word_steps: layout.word_steps,
        })
    }

    /// Launches a batch's groups and reads back its values.
    fn launch(&self, gpu: &mut Gpu, layout: &Layout) -> Result<Vec<u32>, GpuError> {
        let plan = self.share.plan;
        let problem = match plan.ask.problem {
            Problem::Edit => 1,
            Problem::Lcs => 2,
        };
        let bound = match (plan.ask.problem, plan.ask.bound) {
            (Problem::Edit, Some(k)) if k < (u32::MAX / 2) as usize => k as u32,
            _ => NO_BOUND,
        };
        let mut held = Vec::new();
        let result = (|| {
            let patterns = hold(&mut held, gpu.upload(&layout.patterns)?);
            let tables = hold(&mut held, gpu.upload(&layout.tables)?);
            let table_at = hold(&mut held, gpu.upload(&layout.table_at)?);
            let carry_at = hold(&mut held, gpu.upload(&layout.carry_at)?);
            let carries = hold(&mut held, gpu.zeroed::<u8>(layout.carries as usize)?);
            let out = hold(&mut held, gpu.zeroed::<u32>(layout.slots)?);
            let mut launches: Vec<(usize, &[u32], usize)> = CLASSES
                .iter()
                .filter_map(|c| layout.groups.get(c).map(|g| (*c, &g[..], 1)))
                .collect();
            launches.push((self.cap, &layout.long_groups, layout.stripes));
            for (class, list, stripes) in launches {
                if list.is_empty() {
                    continue;
                }
                let program = gpu.program(
                    Kernel::Pairs,
                    &[
                        ("WORDS", class as u64),
                        ("SIGMA", self.alphabet.size as u64),
                        ("PROBLEM", problem),
                    ],
                )?;
                let list_buffer = gpu.upload(list)?;
                let launched = (0..stripes).try_for_each(|stripe| {
                    let r = self.resident;
                    let args = [
                        Arg::Buffer(&r.codes),
                        Arg::Buffer(&r.seq_at),
                        Arg::Buffer(&r.seq_len),
                        Arg::Buffer(&held[patterns]),
                        Arg::Buffer(&held[tables]),
                        Arg::Buffer(&held[table_at]),
                        Arg::Buffer(&list_buffer),
                        Arg::Buffer(&r.scanned),
                        Arg::Buffer(&held[out]),
                        Arg::Buffer(&held[carries]),
                        Arg::Buffer(&held[carry_at]),
                        Arg::U32(stripe as u32),
                        Arg::U32(bound),
                    ];
                    gpu.launch(program, list.len() / 4, self.group, &args)
                });
                gpu.release(list_buffer);
                launched?;
            }
            gpu.download::<u32>(&held[out], layout.slots)
        })();
        for b in held {
            gpu.release(b);
        }
        result
    }
}

/// Hands a batch's values on, item by item, in the plan's order.
fn hand(
    plan: &Plan,
    batch: &[Job],
    strips: &[Vec<Strip>],
    values: &[u32],
    emit: &mut dyn FnMut(&Item, &[u32]),
    tally: &mut Tally,
) {
    for (job, mine) in batch.iter().zip(strips) {
        let first = plan.units[job.unit].members.start;
        let mut at: Vec<Option<&Strip>> = vec![None; plan.units[job.unit].members.len()];
        for s in mine {
            at[s.p - first] = Some(s);
        }
        let mut item = Vec::new();
        for t in job.targets.clone() {
            item.clear();
            for p in plan.valid(job.unit, t) {
                let s = at[p - first].expect("a valid member has a strip");
                item.push(values[s.slot + t - s.t0]);
            }
            work::hand(plan, job, t, &mut item, emit, tally);
        }
    }
}

/// Keeps `buffer` in `held` (released together once the batch is done); its index there.
fn hold(held: &mut Vec<Buffer>, buffer: Buffer) -> usize {
    held.push(buffer);
    held.len() - 1
}
