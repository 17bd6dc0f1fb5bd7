//! What changed between bytecode versions, as flags: the "Version Differences" of the
//! format description, with the names LLVM's own reader gave them.

use super::BytecodeVersion;
use super::types::{LABEL, TypeId};

/// The encoding rules of one bytecode version. Each flag is one entry of the format
/// description's "Version Differences" (and of LLVM's reader, whose names they keep);
/// every flag is off for version 5 (LLVM 1.4 on), the format the description
/// documents.
///
/// ```
/// use llvm_bitstream_reader::legacy::{BytecodeVersion, Rules};
/// let v3 = Rules::for_version(BytecodeVersion(3)).unwrap(); // LLVM 1.3
/// assert!(v3.alignment && v3.no_undef && !v3.long_block_headers);
/// assert_eq!(Rules::for_version(BytecodeVersion(5)), Some(Rules::default()));
/// assert_eq!(Rules::for_version(BytecodeVersion(6)), None);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Rules {
    /// Version 0 (LLVM 1.0, 1.1): the Module Global Info block ends with its own
    /// alignment padding, counted in its size.
    pub inconsistent_global_info: bool,
    /// Version 0: the zero of each primitive type is written in the constant pool, not
    /// implied as slot 0 of its plane.
    pub explicit_primitive_zeros: bool,
    /// Versions 0 and 1 (to LLVM 1.2): `getelementptr` indexes structures with `ubyte`
    /// and sequential types with `long`, and the index type is not in the slot number.
    pub restricted_gep_types: bool,
    /// Versions 0 and 1: types are values in the "type type" plane 12; type ids above 12
    /// are one higher than from version 2 on.
    pub type_derived_from_value: bool,
    /// Versions 0 to 2: blocks inside the module have the 8-byte header (LLVM 1.0-1.2's
    /// block numbers).
    pub long_block_headers: bool,
    /// Versions 0 to 2: type slots are 32-bit VBRs; from version 3 on they are 24-bit, and
    /// `0xFFFFFF` escapes a second VBR.
    pub types_32bit: bool,
    /// Versions 0 to 2: the Module Global Info block has no dependent libraries and no
    /// target triple.
    pub no_dependent_libraries: bool,
    /// Versions 0 to 3 (to LLVM 1.3): blocks, the format information and long-form
    /// instructions are padded to 32 bits.
    pub alignment: bool,
    /// Versions 0 to 4: no `undef` constant (and no inline asm): a constant's operand
    /// count is that of its expression.
    pub no_undef: bool,
    /// Versions 0 to 4: a function's entry in the Module Global Info block is its type
    /// slot only, with no calling convention, external flag or extension word; every
    /// function, external or not, has a Function Definition block.
    pub no_function_flags: bool,
    /// Versions 0 to 4: no `unreachable`; opcodes from 6 on are one lower than LLVM 1.4's.
    pub no_unreachable: bool,
}

impl Rules {
    /// The rules of a version the format description documents (0 to 5); `None` for a
    /// newer one, whose contents this crate does not decode (its blocks still walk).
    pub const fn for_version(version: BytecodeVersion) -> Option<Rules> {
        let v = version.number();
        if v > 5 {
            return None;
        }
        Some(Rules {
            inconsistent_global_info: v == 0,
            explicit_primitive_zeros: v == 0,
            restricted_gep_types: v <= 1,
            type_derived_from_value: v <= 1,
            long_block_headers: v <= 2,
            types_32bit: v <= 2,
            no_dependent_libraries: v <= 2,
            alignment: v <= 3,
            no_undef: v <= 4,
            no_function_flags: v <= 4,
            no_unreachable: v <= 4,
        })
    }

    /// Maps a type id as written to this crate's numbering (version 2's and later): in
    /// versions 0 and 1, `12` is the "type type" (the second value is `true`) and ids above
    /// it are one lower.
    pub const fn sanitize_type(&self, id: u32) -> (TypeId, bool) {
        if !self.type_derived_from_value {
            return (id, false);
        }
        if id == LABEL {
            (0, true)
        } else if id > LABEL {
            (id - 1, false)
        } else {
            (id, false)
        }
    }

    /// Whether slot 0 of a plane of this type is its implied zero: every type but `void`
    /// and `label` (opaque types excepted by the caller); in version 0 only derived types.
    pub const fn has_implicit_null(&self, ty: TypeId) -> bool {
        if self.explicit_primitive_zeros { ty >= super::types::FIRST_DERIVED } else { ty != LABEL && ty != 0 }
    }

    /// An opcode as written, mapped to LLVM 1.4's numbering: in versions 0 to 4, opcodes
    /// 6 to 61 move up by one (`unreachable` took 6).
    pub const fn opcode(&self, raw: u32) -> u32 {
        if self.no_unreachable && raw >= 6 && raw < 62 { raw + 1 } else { raw }
    }
}
