//! What changed between bytecode versions, as flags: the "Version Differences" of the
//! format description, with the names LLVM's own reader gave them, and version 6, which
//! the description predates.

use super::BytecodeVersion;
use super::opcode::Opcode;
use super::types::{LABEL, TypeId};

/// The encoding rules of one bytecode version. Each flag is one entry of the format
/// description's "Version Differences" (and of LLVM's reader, whose names they keep);
/// every flag is off for version 5 (LLVM 1.4 on), the format the description
/// documents. Version 6, which LLVM's CVS wrote for two weeks of late 2006 and no
/// release did, is version 5 with [`signed_div_rem`](Self::signed_div_rem).
///
/// ```
/// use llvm_bitstream_reader::legacy::{BytecodeVersion, Opcode, Rules};
/// let v3 = Rules::for_version(BytecodeVersion(3)).unwrap(); // LLVM 1.3
/// assert!(v3.alignment && v3.no_undef && !v3.long_block_headers);
/// assert_eq!(Rules::for_version(BytecodeVersion(5)), Some(Rules::default()));
/// let v6 = Rules::for_version(BytecodeVersion(6)).unwrap();
/// assert_eq!(v6, Rules { signed_div_rem: true, ..Rules::default() });
/// assert_eq!(v6.instruction_opcode(11), Opcode::SDiv); // version 5's 11 is `rem`
/// assert_eq!(v6.instruction_opcode(36), Opcode::Select); // version 5's 36 is `userop2`
/// assert_eq!(Rules::for_version(BytecodeVersion(7)), None);
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
    /// Version 6 (LLVM's CVS from 2006-10-26 to 2006-11-08, before LLVM 2.0; no release):
    /// `div` and `rem` are split by the signedness their operands are read with, `udiv`,
    /// `sdiv` and `fdiv` at 10 to 12, `urem`, `srem` and `frem` at 13 to 15; the opcodes
    /// after them move up by four (`and` is 16, `shr` 35), except that the slots 32 and 33
    /// of LLVM 1.5's `vanext` and old `vaarg` are gone, so `select` and the opcodes after
    /// it move up by two only (`select` is 36, `shufflevector` 42). Instructions and
    /// constant expressions alike. The negation of LLVM's `hasSignlessDivRem`, as LLVM's
    /// reader of 2006-11-08 (the first to read version 6 as an old version) numbers it.
    pub signed_div_rem: bool,
}

impl Rules {
    /// The rules of a version the format description documents (0 to 5), or of version
    /// 6; `None` for a newer one, whose contents this crate does not decode (its blocks
    /// still walk).
    pub const fn for_version(version: BytecodeVersion) -> Option<Rules> {
        let v = version.number();
        if v > 6 {
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
            signed_div_rem: v == 6,
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
    /// 6 to 61 move up by one (`unreachable` took 6); in version 6, `udiv`, `sdiv` and
    /// `fdiv` are 1.4's `div` (10), `urem`, `srem` and `frem` its `rem` (11), and the
    /// others move back to their 1.4 numbers, as LLVM's reader of 2006-11-08 mapped them
    /// (`upgradeInstrOpcodes`). Numbers no version gives an opcode are kept. What the
    /// number's operands are follows from it; [`instruction_opcode`](Self::instruction_opcode)
    /// is the opcode itself.
    pub const fn opcode(&self, raw: u32) -> u32 {
        if self.signed_div_rem {
            return match raw {
                10..=12 => 10,
                13..=15 => 11,
                16..=35 => raw - 4,
                36..=42 => raw - 2,
                _ => raw,
            };
        }
        if self.no_unreachable && raw >= 6 && raw < 62 { raw + 1 } else { raw }
    }

    /// The opcode an instruction's number names: [`Opcode::from_number`] of
    /// [`opcode`](Self::opcode), but in version 6 the split `div` and `rem` keep their
    /// kind ([`Opcode::UDiv`] to [`Opcode::FRem`]). The pseudo-opcodes 56 to 63 are
    /// [`Opcode::Unknown`] here (a body decodes them to their base opcode).
    pub const fn instruction_opcode(&self, raw: u32) -> Opcode {
        if self.signed_div_rem {
            match raw {
                10 => return Opcode::UDiv,
                11 => return Opcode::SDiv,
                12 => return Opcode::FDiv,
                13 => return Opcode::URem,
                14 => return Opcode::SRem,
                15 => return Opcode::FRem,
                _ => {}
            }
        }
        Opcode::from_number(self.opcode(raw))
    }

    /// The opcode of a constant expression as written. Versions 0 to 4 write every opcode
    /// one lower than LLVM 1.4 (the constant pool has no pseudo-opcodes); version 6 numbers
    /// them as its instructions, which its writer wrote both from.
    pub const fn constant_opcode(&self, raw: u32) -> Opcode {
        if self.no_unreachable { Opcode::from_number(raw.saturating_add(1)) } else { self.instruction_opcode(raw) }
    }
}
