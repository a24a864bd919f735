//! NumPy's `.npy` format, version 1.0, for a pairs run's dense matrix: `numpy.load` reads it
//! as an array of `uint32` in C order, as many rows as queries and columns as targets.
//!
//! A file is the magic string `\x93NUMPY`, the version (`1`, `0`), the header's length as a
//! little-endian `u16`, the header (a Python dict literal,
//! `{'descr': '<u4', 'fortran_order': False, 'shape': (R, C), }`, padded with spaces and
//! ended by a newline so that the data starts at a multiple of 64 bytes, as NumPy writes it),
//! then the values row by row, four little-endian bytes each.

use std::io::{self, Write};

/// The magic string that opens every `.npy` file.
pub const MAGIC: &[u8] = b"\x93NUMPY";

/// The data of a file starts at a multiple of this.
const ALIGN: usize = 64;

/// The preamble of a file holding a `rows x cols` matrix of `uint32`: magic, version, header
/// length and header.
pub fn preamble(rows: usize, cols: usize) -> Vec<u8> {
    let mut dict =
        format!("{{'descr': '<u4', 'fortran_order': False, 'shape': ({rows}, {cols}), }}");
    let fixed = MAGIC.len() + 2 + 2;
    let total = (fixed + dict.len() + 1).div_ceil(ALIGN) * ALIGN;
    while fixed + dict.len() + 1 < total {
        dict.push(' ');
    }
    dict.push('\n');
    let mut out = Vec::with_capacity(total);
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&[1, 0]);
    out.extend_from_slice(&(dict.len() as u16).to_le_bytes());
    out.extend_from_slice(dict.as_bytes());
    out
}

/// Writes a `rows x cols` matrix as a `.npy` file to `out`, row `r` of `cols` values as
/// `row(r, values)` puts it in `values`.
pub fn write_rows(
    out: &mut dyn Write,
    rows: usize,
    cols: usize,
    mut row: impl FnMut(usize, &mut Vec<u32>),
) -> io::Result<()> {
    out.write_all(&preamble(rows, cols))?;
    let mut buffer = Vec::with_capacity(4 * cols);
    let mut values = Vec::with_capacity(cols);
    for r in 0..rows {
        row(r, &mut values);
        assert_eq!(values.len(), cols, "row {r} of a {rows} x {cols} matrix");
        buffer.clear();
        for v in &values {
            buffer.extend_from_slice(&v.to_le_bytes());
        }
        out.write_all(&buffer)?;
    }
    Ok(())
}

/// Writes the `rows x cols` matrix `values` (row by row) as a `.npy` file to `out`.
pub fn write(out: &mut dyn Write, rows: usize, cols: usize, values: &[u32]) -> io::Result<()> {
    assert_eq!(values.len(), rows * cols, "a {rows} x {cols} matrix");
    write_rows(out, rows, cols, |r, row| {
        row.clear();
        row.extend_from_slice(&values[r * cols..(r + 1) * cols]);
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_header_is_numpys_and_the_data_aligned() {
        let mut out = Vec::new();
        write(&mut out, 2, 3, &[0, 1, 2, 3, 4, u32::MAX]).unwrap();
        assert!(out.starts_with(MAGIC));
        assert_eq!(&out[6..8], &[1, 0]);
        let len = u16::from_le_bytes([out[8], out[9]]) as usize;
        assert_eq!((10 + len) % 64, 0);
        let header = std::str::from_utf8(&out[10..10 + len]).unwrap();
        assert!(header.starts_with("{'descr': '<u4', 'fortran_order': False, 'shape': (2, 3), }"));
        assert!(header.ends_with(" \n"));
        let data = &out[10 + len..];
        assert_eq!(data.len(), 24);
        assert_eq!(&data[20..], &[255; 4]);
        assert_eq!(&data[4..8], &[1, 0, 0, 0]);
        let big = preamble(123_456, 7_890_123);
        assert_eq!(big.len() % 64, 0);
    }
}
