//! The vocabulary that decoding and printing share: DWARF and debug-info names, and
//! opcode names, by number.

pub(crate) mod dwarf;
pub(crate) mod opcodes;
