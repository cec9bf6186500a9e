//! The fuzz input as a source of choices: structure-aware targets read their decisions from
//! it, a byte at a time, so a mutation of the bytes is a small change of the structure.

use stackchess_core::SplitMix64;
use stackchess_variants::Variant;

/// Where a generator's choices come from.
pub trait Choices {
    /// A number below `n` (0 when `n` is 0).
    fn below(&mut self, n: usize) -> usize;
}

impl Choices for SplitMix64 {
    fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            SplitMix64::below(self, n)
        }
    }
}

/// The fuzz input, read from the front; choices past its end are 0.
pub struct Bytes<'a> {
    data: &'a [u8],
}

impl<'a> Bytes<'a> {
    /// Reads `data` from its start.
    #[must_use]
    pub fn new(data: &'a [u8]) -> Bytes<'a> {
        Bytes { data }
    }

    /// The next byte (0 past the end).
    pub fn byte(&mut self) -> u8 {
        match self.data.split_first() {
            Some((&b, rest)) => {
                self.data = rest;
                b
            }
            None => 0,
        }
    }

    /// One of the four built-in variants.
    pub fn variant(&mut self) -> Variant {
        Variant::ALL[usize::from(self.byte()) % Variant::ALL.len()]
    }

    /// The rest of the input as text, if it is UTF-8.
    #[must_use]
    pub fn rest_str(&self) -> Option<&'a str> {
        std::str::from_utf8(self.data).ok()
    }

    /// The rest of the input.
    #[must_use]
    pub fn rest(&self) -> &'a [u8] {
        self.data
    }
}

impl Choices for Bytes<'_> {
    fn below(&mut self, n: usize) -> usize {
        if n <= 1 {
            return 0;
        }
        let wide = n > 256;
        let mut v = usize::from(self.byte());
        if wide {
            v = v << 8 | usize::from(self.byte());
        }
        v % n
    }
}

/// The bytes that make [`Bytes::below`] choose `i` of `n` (for writing seed inputs).
#[must_use]
pub fn encode_choice(i: usize, n: usize) -> Vec<u8> {
    match n {
        0 | 1 => Vec::new(),
        2..=256 => vec![i as u8],
        _ => vec![(i >> 8) as u8, i as u8],
    }
}
