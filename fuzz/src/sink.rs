//! The bounded sink the printing checks print into (`ir_print`, `legacy_check`).

use std::fmt::{self, Write};

/// How much one display may print before the sink stops it.
const LIMIT: usize = 1 << 20;

/// Counts what is printed; fails once more than [`LIMIT`] bytes came.
#[derive(Default)]
pub struct Sink {
    bytes: usize,
    full: bool,
}

impl Write for Sink {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        self.bytes += s.len();
        if self.bytes > LIMIT {
            self.full = true;
            return Err(fmt::Error);
        }
        Ok(())
    }
}

/// Prints `value` into a fresh sink: an error must come from the sink.
pub fn print(value: impl fmt::Display) {
    let mut sink = Sink::default();
    if write!(sink, "{value}").is_err() {
        assert!(sink.full, "Display failed after {} bytes without the sink failing", sink.bytes);
    }
}
