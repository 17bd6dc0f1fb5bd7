//! The vocabulary that decoding and printing share: DWARF and debug-info names by number.

pub(crate) mod dwarf;
