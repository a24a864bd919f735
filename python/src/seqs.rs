//! Python's sequences as the kernels' bytes. A call takes either bytes-like objects (`bytes`,
//! `bytearray`, `memoryview`, NumPy `uint8` arrays, anything else with a one-byte buffer) or
//! `str`, never both: bytes are compared byte by byte, strings by code point, as rapidfuzz and
//! edlib compare them (`"café"` against `"cafe"` is one edit, not two).
//!
//! The kernels take bytes, so the strings of one call are coded together: each distinct code
//! point becomes one byte, the code point itself when every one is below 256, otherwise numbers
//! in the order of first appearance; a call whose strings hold more than 256 distinct code
//! points is refused. `bytes` are borrowed without a copy (they stay alive while a thread
//! works on them); other buffers are copied once.
//!
//! Cost: one pass over each string; a copy of each buffer that is not `bytes`.

use std::collections::HashMap;
use std::ops::Deref;

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::pybacked::PyBackedBytes;
use pyo3::types::{PyByteArray, PyBytes, PyString};

/// The most distinct symbols one call's sequences may hold: one byte each.
pub const MOST_SYMBOLS: usize = 256;

/// One sequence, as the kernels read it.
pub enum Seq {
    /// A `bytes` object's own storage, or a copy of another buffer.
    Backed(PyBackedBytes),
    /// A string's code points, coded (see [`Coding`]).
    Coded(Vec<u8>),
}

impl Deref for Seq {
    type Target = [u8];

    fn deref(&self) -> &[u8] {
        match self {
            Seq::Backed(b) => b,
            Seq::Coded(v) => v,
        }
    }
}

/// How a call's strings became bytes, to turn bytes (an LCS) back into a string.
#[derive(Debug, Clone, Default)]
pub struct Coding {
    /// `chars[b]`: the code point coded as byte `b`.
    chars: Vec<char>,
}

impl Coding {
    /// The string of `bytes` coded by this coding.
    pub fn decode(&self, bytes: &[u8]) -> String {
        bytes.iter().map(|&b| self.chars[b as usize]).collect()
    }

    /// The character shown for byte `b` in an alignment's view.
    pub fn shown(&self, b: u8) -> char {
        self.chars[b as usize]
    }
}

/// One call's sequences, in its order.
pub struct Seqs {
    pub items: Vec<Seq>,
    /// `Some` when the sequences were strings.
    pub coding: Option<Coding>,
}

/// One argument's value before coding.
enum Raw {
    Bytes(PyBackedBytes),
    Text(String),
}

/// The sequences of `values` (each named `names[i]` in errors), all bytes-like or all `str`.
pub fn seqs(values: &[(String, Bound<'_, PyAny>)]) -> PyResult<Seqs> {
    let raws = values
        .iter()
        .map(|(name, v)| raw(name, v))
        .collect::<PyResult<Vec<Raw>>>()?;
    let texts = raws.iter().filter(|r| matches!(r, Raw::Text(_))).count();
    if texts > 0 && texts < raws.len() {
        let (first_text, first_bytes) = (
            raws.iter().position(|r| matches!(r, Raw::Text(_))),
            raws.iter().position(|r| matches!(r, Raw::Bytes(_))),
        );
        let name = |i: Option<usize>| i.map_or("", |i| values[i].0.as_str());
        return Err(PyTypeError::new_err(format!(
            "{} is a str and {} is bytes-like: compare str with str (by code point) or bytes \
             with bytes, not one with the other",
            name(first_text),
            name(first_bytes)
        )));
    }
    if texts == 0 {
        let items = raws
            .into_iter()
            .map(|r| match r {
                Raw::Bytes(b) => Seq::Backed(b),
                Raw::Text(_) => unreachable!("no str among them"),
            })
            .collect();
        return Ok(Seqs {
            items,
            coding: None,
        });
    }
    let strings: Vec<String> = raws
        .into_iter()
        .map(|r| match r {
            Raw::Text(s) => s,
            Raw::Bytes(_) => unreachable!("only str among them"),
        })
        .collect();
    let (items, coding) = code(&strings, &values[0].0)?;
    Ok(Seqs {
        items: items.into_iter().map(Seq::Coded).collect(),
        coding: Some(coding),
    })
}

/// `value` as bytes or a string, or a `TypeError` naming `name`.
fn raw(name: &str, value: &Bound<'_, PyAny>) -> PyResult<Raw> {
    if let Ok(s) = value.cast::<PyString>() {
        return Ok(Raw::Text(s.to_cow()?.into_owned()));
    }
    if value.is_instance_of::<PyBytes>() || value.is_instance_of::<PyByteArray>() {
        return Ok(Raw::Bytes(value.extract::<PyBackedBytes>()?));
    }
    let type_name = value.get_type().name()?.to_string();
    let one_byte = |what: &str| {
        PyTypeError::new_err(format!(
            "{name} is {what}: give bytes, bytearray, memoryview, a NumPy uint8 array or str"
        ))
    };
    if let Ok(dtype) = value.getattr("dtype") {
        let kind: String = dtype.getattr("kind")?.extract()?;
        let size: usize = dtype.getattr("itemsize")?.extract()?;
        if kind != "u" || size != 1 {
            return Err(one_byte(&format!(
                "a NumPy array of dtype {}",
                dtype.str()?
            )));
        }
    }
    // Any other object with a buffer of one-byte items, in one dimension, copied once.
    let view = PyModule::import(value.py(), "builtins")?
        .getattr("memoryview")?
        .call1((value,))
        .map_err(|_| one_byte(&format!("a {type_name}")))?;
    let ndim: usize = view.getattr("ndim")?.extract()?;
    if ndim != 1 {
        return Err(one_byte(&format!(
            "a {type_name} of {ndim} dimensions, not 1"
        )));
    }
    if view.getattr("itemsize")?.extract::<usize>()? != 1 {
        return Err(one_byte(&format!(
            "a {type_name} of items wider than a byte"
        )));
    }
    let copied = view.call_method0("tobytes")?;
    Ok(Raw::Bytes(copied.extract::<PyBackedBytes>()?))
}

/// The strings coded as bytes together (see the module doc); `name` is the first argument's,
/// for the error of too many symbols.
fn code(strings: &[String], name: &str) -> PyResult<(Vec<Vec<u8>>, Coding)> {
    let narrow = strings.iter().all(|s| s.chars().all(|c| (c as u32) < 256));
    if narrow {
        let chars = (0..=255u8).map(char::from).collect();
        let items = strings
            .iter()
            .map(|s| s.chars().map(|c| c as u32 as u8).collect())
            .collect();
        return Ok((items, Coding { chars }));
    }
    let mut codes: HashMap<char, u8> = HashMap::new();
    let mut chars = Vec::new();
    let mut items = Vec::with_capacity(strings.len());
    for s in strings {
        let mut coded = Vec::with_capacity(s.len());
        for c in s.chars() {
            let b = match codes.get(&c) {
                Some(&b) => b,
                None => {
                    if chars.len() == MOST_SYMBOLS {
                        return Err(PyValueError::new_err(format!(
                            "{name}: the strings hold more than {MOST_SYMBOLS} distinct code \
                             points; the kernels compare at most {MOST_SYMBOLS} symbols in one \
                             call (encode them, or compare fewer strings at once)"
                        )));
                    }
                    let b = chars.len() as u8;
                    codes.insert(c, b);
                    chars.push(c);
                    b
                }
            };
            coded.push(b);
        }
        items.push(coded);
    }
    Ok((items, Coding { chars }))
}

/// Every item of the iterable `value` (named `name`), as `(name[i], item)`.
pub fn items<'py>(
    name: &str,
    value: &Bound<'py, PyAny>,
) -> PyResult<Vec<(String, Bound<'py, PyAny>)>> {
    if value.is_instance_of::<PyString>() || value.is_instance_of::<PyBytes>() {
        return Err(PyTypeError::new_err(format!(
            "{name} must be a list (or another iterable) of sequences, not one sequence"
        )));
    }
    let iter = value.try_iter().map_err(|_| {
        PyTypeError::new_err(format!(
            "{name} must be a list (or another iterable) of sequences, not {}",
            value
                .get_type()
                .name()
                .map(|n| n.to_string())
                .unwrap_or_default()
        ))
    })?;
    iter.enumerate()
        .map(|(i, item)| Ok((format!("{name}[{i}]"), item?)))
        .collect()
}
