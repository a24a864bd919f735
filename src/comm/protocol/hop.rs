//! A hop of the traceback onto another rank: the next cell (two little-endian `u64`) followed
//! by the path found so far ([`Path::encode`]: its number of moves as a `u64`, then the moves
//! four to a byte). The finished path delivered to rank 0 is encoded as a path alone.

use lcs_core::problem::Path;

/// Bytes of a hop message before the path: the next cell's coordinates.
pub const HOP_HEADER_BYTES: usize = 16;

/// Encodes a hop to cell `(i, j)` carrying `path`, the path found so far.
pub fn encode_hop(i: usize, j: usize, path: &Path) -> Vec<u8> {
    let mut msg = Vec::with_capacity(HOP_HEADER_BYTES + path.encoded_len());
    msg.extend_from_slice(&(i as u64).to_le_bytes());
    msg.extend_from_slice(&(j as u64).to_le_bytes());
    path.encode(&mut msg);
    msg
}

/// Decodes a hop: the next cell and the path found so far. `None` for a message that is not
/// a hop.
pub fn decode_hop(msg: &[u8]) -> Option<((usize, usize), Path)> {
    let word = |at: usize| -> Option<usize> {
        let bytes: [u8; 8] = msg.get(at..at + 8)?.try_into().ok()?;
        usize::try_from(u64::from_le_bytes(bytes)).ok()
    };
    let cell = (word(0)?, word(8)?);
    Some((cell, Path::decode(&msg[HOP_HEADER_BYTES..])?))
}

#[cfg(test)]
mod tests {
    use super::*;
    use lcs_core::problem::Move;

    #[test]
    fn hop_round_trip() {
        let mut path = Path::new();
        for step in [Move::Match, Move::Up, Move::Left, Move::Sub, Move::Match] {
            path.push(step);
        }
        let msg = encode_hop(7, 1 << 40, &path);
        assert_eq!(msg.len(), HOP_HEADER_BYTES + 8 + 2);
        let (cell, got) = decode_hop(&msg).unwrap();
        assert_eq!(cell, (7, 1 << 40));
        assert_eq!(got, path);
        assert_eq!(decode_hop(&msg[..15]), None);
        assert_eq!(decode_hop(&msg[..msg.len() - 1]), None);
    }
}
