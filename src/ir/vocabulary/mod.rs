//! The vocabulary that decoding and printing share: DWARF and debug-info names and
//! opcode names, by number; datalayout strings and target triples, read.

pub(crate) mod datalayout;
pub(crate) mod dwarf;
pub(crate) mod opcodes;
pub(crate) mod triple;
