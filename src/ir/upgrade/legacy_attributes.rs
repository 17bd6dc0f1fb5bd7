//! The attribute lists of LLVM 3.2 and before (`PARAMATTR_CODE_ENTRY_OLD`): each
//! `(index, bits)` pair of a list is one index's attributes packed into an integer, which
//! LLVM's reader unpacks into an `AttrBuilder` (`decodeLLVMAttributesForBitcode` and
//! `addRawAttributeValue` of `BitcodeReader.cpp`, unchanged since LLVM 3.3).
//!
//! ```
//! use llvm_bitstream_reader::ir::{AttrIndex, upgrade};
//!
//! // `i8* noalias nocapture` of LLVM 3.2: bit 6 and bit 21 (written as bit 32).
//! let group = upgrade::legacy_attribute_group(1, (1 << 6) | (1 << 32));
//! assert_eq!(group.index, AttrIndex::Param(0));
//! let names: Vec<_> = group.attributes.iter().filter_map(|a| a.kind()?.name()).collect();
//! assert_eq!(names, ["noalias", "nocapture"]);
//! ```

use alloc::vec::Vec;

use crate::ids::llvm_ir::raw as ids;
use crate::ir::module::attributes::{AttrIndex, AttrKind, Attribute, AttributeGroup};

/// The attribute kind (`ATTR_KIND_*`) of each bit of the unpacked value, as
/// `getRawAttributeMask` places them, bit 0 first; 0 where the bit is no single kind
/// (bits 16-20, the alignment, come apart; bits 26-28 are `alignstack`'s exponent). Only
/// bits 0-15 and 21-40 can be set: the packed value holds 52 bits, and bits 32-51 of it are
/// bits 21-40 here.
const KIND_OF_BIT: [u32; 41] = [
    ids::ATTR_KIND_Z_EXT,             // 0
    ids::ATTR_KIND_S_EXT,             // 1
    ids::ATTR_KIND_NO_RETURN,         // 2
    ids::ATTR_KIND_IN_REG,            // 3
    ids::ATTR_KIND_STRUCT_RET,        // 4
    ids::ATTR_KIND_NO_UNWIND,         // 5
    ids::ATTR_KIND_NO_ALIAS,          // 6
    ids::ATTR_KIND_BY_VAL,            // 7
    ids::ATTR_KIND_NEST,              // 8
    ids::ATTR_KIND_READ_NONE,         // 9
    ids::ATTR_KIND_READ_ONLY,         // 10
    ids::ATTR_KIND_NO_INLINE,         // 11
    ids::ATTR_KIND_ALWAYS_INLINE,     // 12
    ids::ATTR_KIND_OPTIMIZE_FOR_SIZE, // 13
    ids::ATTR_KIND_STACK_PROTECT,     // 14
    ids::ATTR_KIND_STACK_PROTECT_REQ, // 15
    0,
    0,
    0,
    0,
    0,                                   // 16-20: the alignment (never set here)
    ids::ATTR_KIND_NO_CAPTURE,           // 21
    ids::ATTR_KIND_NO_RED_ZONE,          // 22
    ids::ATTR_KIND_NO_IMPLICIT_FLOAT,    // 23
    ids::ATTR_KIND_NAKED,                // 24
    ids::ATTR_KIND_INLINE_HINT,          // 25
    0,                                   // 26-28: alignstack
    0,                                   //
    0,                                   //
    ids::ATTR_KIND_RETURNS_TWICE,        // 29
    ids::ATTR_KIND_UW_TABLE,             // 30
    ids::ATTR_KIND_NON_LAZY_BIND,        // 31
    ids::ATTR_KIND_SANITIZE_ADDRESS,     // 32
    ids::ATTR_KIND_MIN_SIZE,             // 33
    ids::ATTR_KIND_NO_DUPLICATE,         // 34
    ids::ATTR_KIND_STACK_PROTECT_STRONG, // 35
    ids::ATTR_KIND_SANITIZE_THREAD,      // 36
    ids::ATTR_KIND_SANITIZE_MEMORY,      // 37
    ids::ATTR_KIND_NO_BUILTIN,           // 38
    ids::ATTR_KIND_RETURNED,             // 39
    ids::ATTR_KIND_COLD,                 // 40
];

/// The attributes of one packed value, as `decodeLLVMAttributesForBitcode` adds them to
/// its builder: the alignment (bits 16-31, the alignment itself), then each set bit's
/// kind, bit by bit. `byval` and `sret` have no type: the reader gives them the
/// parameter's pointee type afterwards ([`super::upgraded_attributes`]), as it does for
/// LLVM 11's untyped ones; a function's old memory kinds likewise become `memory(…)`
/// from LLVM 16 there.
pub fn legacy_attributes(encoded: u64) -> Vec<Attribute> {
    let mut out = Vec::new();
    let alignment = (encoded >> 16) & 0xffff;
    if alignment != 0 {
        out.push(Attribute::Int(AttrKind(ids::ATTR_KIND_ALIGNMENT.into()), alignment));
    }
    let bits = ((encoded & (0xf_ffff << 32)) >> 11) | (encoded & 0xffff);
    for (bit, &kind) in KIND_OF_BIT.iter().enumerate() {
        if bits & (1 << bit) == 0 || kind == 0 {
            continue;
        }
        let kind = AttrKind(kind.into());
        out.push(match kind.0 as u32 {
            ids::ATTR_KIND_STRUCT_RET | ids::ATTR_KIND_BY_VAL => Attribute::Type(kind, None),
            _ => Attribute::Enum(kind),
        });
    }
    let stack = (bits >> 26) & 7;
    if stack != 0 {
        out.push(Attribute::Int(AttrKind(ids::ATTR_KIND_STACK_ALIGNMENT.into()), 1 << (stack - 1)));
    }
    out
}

/// One `(index, bits)` pair of an old attribute list as a group: at `index` (encoded as
/// a group's, `0xFFFFFFFF` the function, 0 the return value, `n` parameter `n - 1`), the
/// attributes [`legacy_attributes`] unpacks. The group has no id of the file's
/// (`u64::MAX`) and the bit offset 0.
pub fn legacy_attribute_group(index: u64, encoded: u64) -> AttributeGroup {
    AttributeGroup { id: u64::MAX, index: AttrIndex::from_raw(index), attributes: legacy_attributes(encoded), bit: 0 }
}
