//! The input's way from rank 0 to every rank: rank 0 reads it (for as long as a pipe's writer
//! takes), then broadcasts a header of five `u64`s (an ok/error code, the two lengths, the
//! orientation and the format), so that on error every rank returns together; then each sequence
//! in pieces of at most [`PIECE`] bytes, since MPI counts a message's elements in a C `int`. The
//! other ranks wait for the header asleep ([`Waiting::Sleep`], after a first spell of yielding
//! in which a file's read ends), keeping no core busy while rank 0 waits on a person or a pipe;
//! the pieces, which follow at once, are waited for as the host's choice says.

use std::ops::Range;

use crate::comm::world::World;

use crate::comm::waiting::Waiting;
use crate::error::Error;
use crate::input::{Format, Pair};

/// Largest piece of a sequence broadcast in one message: 1 GiB, within an MPI count.
pub const PIECE: usize = 1 << 30;

const _: () = assert!(PIECE <= i32::MAX as usize);

/// The ranges in which `len` bytes are sent: in order, each of `piece` bytes (`piece >= 1`)
/// but the last, which holds the rest; none for no bytes.
pub fn pieces(len: usize, piece: usize) -> impl Iterator<Item = Range<usize>> {
    assert!(piece > 0, "a piece holds at least one byte");
    (0..len)
        .step_by(piece)
        .map(move |start| start..len.min(start.saturating_add(piece)))
}

/// Gives every rank rank 0's input. Collective: rank 0 passes what it read and checked
/// (`Some`), the others `None`; every rank returns the pair, or the error (only rank 0's
/// carries the message; the others' is [`Error::Peer`] with its exit status).
pub fn share_pair(
    world: &World,
    waiting: Waiting,
    loaded: Option<Result<Pair, Error>>,
) -> Result<Pair, Error> {
    share_pair_in(world, waiting, loaded, PIECE)
}

/// Rank 0's verdict on what it `loaded` (`Some`; the others pass `None`), broadcast before
/// anything else as a header of `N` words: an exit code first, 0 when what follows is there,
/// then what `describe` says of it (the code's word left 0), or only the error's code and
/// zeros. The other ranks wait for it asleep: rank 0 may be reading from a person or a pipe.
/// Every rank returns the header and rank 0 what it loaded; or the error, rank 0's own and the
/// others' [`Error::Peer`] with its exit status, so that all return together.
pub fn share_verdict<T, const N: usize>(
    world: &World,
    loaded: Option<Result<T, Error>>,
    describe: impl FnOnce(&T) -> [u64; N],
) -> Result<([u64; N], Option<T>), Error> {
    let mut header = [0u64; N];
    match &loaded {
        Some(Ok(what)) => header = describe(what),
        Some(Err(e)) => header[0] = u64::from(e.exit_code()),
        None => {}
    }
    Waiting::Sleep.broadcast(world, &mut header[..]);
    match loaded {
        Some(Ok(what)) => Ok((header, Some(what))),
        Some(Err(e)) => Err(e),
        None if header[0] != 0 => Err(Error::Peer(header[0] as u8)),
        None => Ok((header, None)),
    }
}

/// [`share_pair`] with pieces of `piece` bytes (the self-test shrinks them, so that a small
/// input travels in many).
pub fn share_pair_in(
    world: &World,
    waiting: Waiting,
    loaded: Option<Result<Pair, Error>>,
    piece: usize,
) -> Result<Pair, Error> {
    // [exit code, rows, cols, swapped, format]
    let (header, loaded) = share_verdict(world, loaded, |p| {
        [
            0,
            p.x.len() as u64,
            p.y.len() as u64,
            p.swapped as u64,
            (p.format == Format::Fasta) as u64,
        ]
    })?;
    let mut pair = match loaded {
        Some(p) => p,
        None => Pair {
            x: vec![0; length(header[1])?],
            y: vec![0; length(header[2])?],
            swapped: header[3] != 0,
            format: if header[4] != 0 {
                Format::Fasta
            } else {
                Format::Plain
            },
            // Only rank 0 writes what names the sequences.
            names: Default::default(),
        },
    };
    for sequence in [&mut pair.x, &mut pair.y] {
        for range in pieces(sequence.len(), piece) {
            waiting.broadcast(world, &mut sequence[range]);
        }
    }
    Ok(pair)
}

/// A broadcast length as this rank's `usize`.
fn length(len: u64) -> Result<usize, Error> {
    usize::try_from(len).map_err(|_| {
        anyhow::anyhow!("a sequence of {len} bytes does not fit in memory here").into()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The pieces cover the sequence once, in order, each full but the last.
    #[test]
    fn pieces_cover_the_sequence_in_order() {
        for piece in 1..=9 {
            for len in 0..=40 {
                let ranges: Vec<Range<usize>> = pieces(len, piece).collect();
                assert_eq!(ranges.len(), len.div_ceil(piece), "{len} / {piece}");
                let mut next = 0;
                for (k, r) in ranges.iter().enumerate() {
                    assert_eq!(r.start, next);
                    assert!(!r.is_empty() && r.len() <= piece);
                    if k + 1 < ranges.len() {
                        assert_eq!(r.len(), piece);
                    }
                    next = r.end;
                }
                assert_eq!(next, len);
            }
        }
    }

    /// A sequence of 2^31 bytes or more, which one MPI message cannot hold, goes in pieces
    /// that each can; a sequence of one piece goes as one message.
    #[test]
    fn genome_sized_sequences_go_in_pieces_an_mpi_count_holds() {
        let len = (5usize << 30) + 3;
        let ranges: Vec<Range<usize>> = pieces(len, PIECE).collect();
        assert_eq!(ranges.len(), 6);
        assert!(ranges.iter().all(|r| r.len() <= i32::MAX as usize));
        assert_eq!(ranges[5], (5 << 30)..len);
        assert_eq!(pieces(PIECE, PIECE).count(), 1);
        assert_eq!(pieces(usize::MAX, usize::MAX).count(), 1);
        assert_eq!(pieces(usize::MAX, PIECE).last().unwrap().end, usize::MAX);
    }
}
