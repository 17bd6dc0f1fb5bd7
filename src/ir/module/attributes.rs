//! Attributes: the PARAMATTR_GROUP block's groups and the PARAMATTR block's lists,
//! decoded (printed by `print::attributes`).

use alloc::string::String;
use alloc::vec::Vec;

use crate::error::Error;
use crate::ids::llvm_ir::raw as ids;
use crate::ir::module::types::TypeId;
use crate::ir::module::walk::{each_record, short};
use crate::reader::Reader;

/// An attribute kind number (`ATTR_KIND_*` of LLVMBitCodes.h). Numbers this crate does
/// not know are kept: [`AttrKind::name`] is then `None` and the attribute prints as
/// `unknown_attr(N)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct AttrKind(pub u64);

/// By name (`"nounwind"`), as LLVM spells it; a kind this crate does not know, by number.
#[cfg(feature = "serde")]
impl serde::Serialize for AttrKind {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self.name() {
            Some(name) => s.serialize_str(name),
            None => s.serialize_u64(self.0),
        }
    }
}

/// Spellings by kind number, as of LLVM 22 (LLVMBitCodes.h `ATTR_KIND_*`, Attributes.td).
const KIND_NAMES: [&str; 108] = [
    "",                                  // 0: none
    "align",                             // 1
    "alwaysinline",                      // 2
    "byval",                             // 3
    "inlinehint",                        // 4
    "inreg",                             // 5
    "minsize",                           // 6
    "naked",                             // 7
    "nest",                              // 8
    "noalias",                           // 9
    "nobuiltin",                         // 10
    "nocapture",                         // 11 (LLVM 21 reads it as captures(none))
    "noduplicate",                       // 12
    "noimplicitfloat",                   // 13
    "noinline",                          // 14
    "nonlazybind",                       // 15
    "noredzone",                         // 16
    "noreturn",                          // 17
    "nounwind",                          // 18
    "optsize",                           // 19
    "readnone",                          // 20
    "readonly",                          // 21
    "returned",                          // 22
    "returns_twice",                     // 23
    "signext",                           // 24
    "alignstack",                        // 25
    "ssp",                               // 26
    "sspreq",                            // 27
    "sspstrong",                         // 28
    "sret",                              // 29
    "sanitize_address",                  // 30
    "sanitize_thread",                   // 31
    "sanitize_memory",                   // 32
    "uwtable",                           // 33
    "zeroext",                           // 34
    "builtin",                           // 35
    "cold",                              // 36
    "optnone",                           // 37
    "inalloca",                          // 38
    "nonnull",                           // 39
    "jumptable",                         // 40
    "dereferenceable",                   // 41
    "dereferenceable_or_null",           // 42
    "convergent",                        // 43
    "safestack",                         // 44
    "argmemonly",                        // 45 (LLVM 16 reads it as memory(argmem: readwrite))
    "swiftself",                         // 46
    "swifterror",                        // 47
    "norecurse",                         // 48
    "inaccessiblememonly",               // 49
    "inaccessiblemem_or_argmemonly",     // 50
    "allocsize",                         // 51
    "writeonly",                         // 52
    "speculatable",                      // 53
    "strictfp",                          // 54
    "sanitize_hwaddress",                // 55
    "nocf_check",                        // 56
    "optforfuzzing",                     // 57
    "shadowcallstack",                   // 58
    "speculative_load_hardening",        // 59
    "immarg",                            // 60
    "willreturn",                        // 61
    "nofree",                            // 62
    "nosync",                            // 63
    "sanitize_memtag",                   // 64
    "preallocated",                      // 65
    "nomerge",                           // 66
    "null_pointer_is_valid",             // 67
    "noundef",                           // 68
    "byref",                             // 69
    "mustprogress",                      // 70
    "nocallback",                        // 71
    "hot",                               // 72
    "noprofile",                         // 73
    "vscale_range",                      // 74
    "swiftasync",                        // 75
    "nosanitize_coverage",               // 76
    "elementtype",                       // 77
    "disable_sanitizer_instrumentation", // 78
    "nosanitize_bounds",                 // 79
    "allocalign",                        // 80
    "allocptr",                          // 81
    "allockind",                         // 82
    "presplitcoroutine",                 // 83
    "fn_ret_thunk_extern",               // 84
    "skipprofile",                       // 85
    "memory",                            // 86
    "nofpclass",                         // 87
    "optdebug",                          // 88
    "writable",                          // 89
    "coro_only_destroy_when_complete",   // 90
    "dead_on_unwind",                    // 91
    "range",                             // 92
    "sanitize_numerical_stability",      // 93
    "initializes",                       // 94
    "hybrid_patchable",                  // 95
    "sanitize_realtime",                 // 96
    "sanitize_realtime_blocking",        // 97
    "coro_elide_safe",                   // 98
    "noext",                             // 99
    "nodivergencesource",                // 100
    "sanitize_type",                     // 101
    "captures",                          // 102
    "dead_on_return",                    // 103
    "sanitize_alloc_token",              // 104
    "nocreateundeforpoison",             // 105
    "denormal_fpenv",                    // 106
    "nooutline",                         // 107
];

impl AttrKind {
    /// LLVM's spelling (`nounwind`, `align`, `byval`), or `None` for a kind this crate
    /// does not know.
    pub fn name(self) -> Option<&'static str> {
        KIND_NAMES.get(usize::try_from(self.0).ok()?).copied().filter(|n| !n.is_empty())
    }
}

/// A signed range `[lower, upper)` of a `range` or `initializes` attribute. Values of
/// types wider than 64 bits keep their sign-rotated words.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub enum ConstantRange {
    /// At most 64 bits: the bounds, sign-extended.
    Small {
        /// Inclusive lower bound.
        lower: i64,
        /// Exclusive upper bound.
        upper: i64,
    },
    /// Wider: the words of each bound, as stored (sign-rotated).
    Wide {
        /// The lower bound's words.
        lower: Vec<u64>,
        /// The upper bound's words.
        upper: Vec<u64>,
    },
}

/// One attribute of a group.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub enum Attribute {
    /// An enum attribute (encoding 0): `nounwind`.
    Enum(AttrKind),
    /// An integer attribute (encoding 1): `align 8`, `memory(read)`, `uwtable(sync)`.
    Int(AttrKind, u64),
    /// A string attribute (encodings 3 and 4): `"key"` or `"key"="value"`.
    String {
        /// The key.
        key: String,
        /// The value, if the attribute has one.
        value: Option<String>,
    },
    /// A type attribute (encodings 5 and 6): `byval(%struct.S)`, or `byval` without a type.
    Type(AttrKind, Option<TypeId>),
    /// A constant-range attribute (encoding 7): `range(i32 0, 10)`.
    Range {
        /// The kind.
        kind: AttrKind,
        /// The integer width.
        bit_width: u64,
        /// The range.
        range: ConstantRange,
    },
    /// A constant-range-list attribute (encoding 8): `initializes((0, 4), (8, 12))`.
    RangeList {
        /// The kind.
        kind: AttrKind,
        /// The integer width.
        bit_width: u64,
        /// The ranges.
        ranges: Vec<ConstantRange>,
    },
    /// An encoding this crate does not know: the rest of the record from it on, kept.
    Unknown {
        /// The encoding number.
        encoding: u64,
        /// The operands after it (to the end of the record).
        operands: Vec<u64>,
    },
}

impl Attribute {
    /// The attribute's kind (`None` for a string attribute or an unknown encoding).
    pub fn kind(&self) -> Option<AttrKind> {
        match self {
            Attribute::Enum(k)
            | Attribute::Int(k, _)
            | Attribute::Type(k, _)
            | Attribute::Range { kind: k, .. }
            | Attribute::RangeList { kind: k, .. } => Some(*k),
            Attribute::String { .. } | Attribute::Unknown { .. } => None,
        }
    }
}

impl AttrKind {
    /// The kind LLVM spells `name` (`"nounwind"` → 18), if this crate knows it.
    pub fn from_name(name: &str) -> Option<AttrKind> {
        KIND_NAMES.iter().position(|&n| !n.is_empty() && n == name).map(|k| AttrKind(k as u64))
    }
}

/// The attribute list index of a group: the function (`0xFFFFFFFF`), its return value
/// (0), or parameter `n` (`n + 1`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum AttrIndex {
    /// Function attributes.
    Function,
    /// Return-value attributes.
    Return,
    /// Attributes of parameter `n` (from 0).
    Param(u64),
}

impl AttrIndex {
    /// The index for an encoded value.
    pub fn from_raw(code: u64) -> Self {
        match code {
            0xFFFF_FFFF => AttrIndex::Function,
            0 => AttrIndex::Return,
            n => AttrIndex::Param(n - 1),
        }
    }
}

/// A PARAMATTR_GRP_CODE_ENTRY: `attributes #id = { … }` for one index.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct AttributeGroup {
    /// The group id (the `#N` of the bitcode, not necessarily `llvm-dis`'s numbering).
    pub id: u64,
    /// What the attributes apply to.
    pub index: AttrIndex,
    /// The attributes, in record order (the writer's sorted order).
    pub attributes: Vec<Attribute>,
    /// Bit offset of the record.
    pub bit: u64,
}

/// A PARAMATTR_CODE_ENTRY: the groups one function or call uses (by group id), or, for
/// the legacy PARAMATTR_CODE_ENTRY_OLD, `(index, raw attribute bits)` pairs.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub enum AttributeList {
    /// Group ids.
    Groups(Vec<u64>),
    /// LLVM 3.2-era `(index, encoded attribute bits)` pairs.
    Legacy(Vec<(u64, u64)>),
}

/// The entries of a PARAMATTR_GROUP block.
pub(crate) fn read_attribute_groups(reader: &mut Reader<'_>, groups: &mut Vec<AttributeGroup>) -> Result<(), Error> {
    let mut scratch = Vec::new();
    each_record(reader, |r| {
        let ops = r.operand_slice();
        if r.code() != ids::PARAMATTR_GRP_CODE_ENTRY {
            return Ok(());
        }
        if ops.len() < 2 {
            return Err(short(r, "PARAMATTR_GRP_CODE_ENTRY", ops.len(), 3));
        }
        groups.push(AttributeGroup {
            id: ops[0],
            index: AttrIndex::from_raw(ops[1]),
            attributes: decode_group_attributes_with(&ops[2..], &mut scratch),
            bit: r.bit_offset(),
        });
        Ok(())
    })
}

/// The lists of a PARAMATTR block.
pub(crate) fn read_attribute_lists(reader: &mut Reader<'_>, lists: &mut Vec<AttributeList>) -> Result<(), Error> {
    each_record(reader, |r| {
        let ops = r.operand_slice();
        match r.code() {
            ids::PARAMATTR_CODE_ENTRY => lists.push(AttributeList::Groups(ops.to_vec())),
            ids::PARAMATTR_CODE_ENTRY_OLD => {
                lists.push(AttributeList::Legacy(ops.chunks_exact(2).map(|p| (p[0], p[1])).collect()))
            }
            _ => {}
        }
        Ok(())
    })
}

/// Decodes the attributes of a PARAMATTR_GRP_CODE_ENTRY from operand 2 on. Unknown
/// encodings keep the rest of the record; nothing here is an error.
#[cfg(test)]
pub(crate) fn decode_group_attributes(ops: &[u64]) -> Vec<Attribute> {
    let mut scratch = Vec::new();
    decode_group_attributes_into(ops, &mut scratch);
    scratch
}

/// [`decode_group_attributes`] through a scratch buffer the caller reuses from group to
/// group: the result is allocated once, at its exact size.
pub(crate) fn decode_group_attributes_with(ops: &[u64], scratch: &mut Vec<Attribute>) -> Vec<Attribute> {
    scratch.clear();
    decode_group_attributes_into(ops, scratch);
    // Moved out at the exact size; the scratch buffer keeps its capacity for the next.
    let mut attributes = Vec::with_capacity(scratch.len());
    attributes.append(scratch);
    attributes
}

fn decode_group_attributes_into(ops: &[u64], out: &mut Vec<Attribute>) {
    let mut i = 0;
    let get = |i: usize| ops.get(i).copied();
    while let Some(encoding) = get(i) {
        i += 1;
        match encoding {
            0 => {
                let Some(k) = get(i) else { break };
                out.push(Attribute::Enum(AttrKind(k)));
                i += 1;
            }
            1 => {
                let (Some(k), Some(v)) = (get(i), get(i + 1)) else { break };
                out.push(Attribute::Int(AttrKind(k), v));
                i += 2;
            }
            3 | 4 => {
                let key = c_string(ops, &mut i);
                let value = (encoding == 4).then(|| c_string(ops, &mut i));
                out.push(Attribute::String { key, value });
            }
            5 | 6 => {
                let Some(k) = get(i) else { break };
                i += 1;
                let ty = if encoding == 6 {
                    let Some(t) = get(i) else { break };
                    i += 1;
                    Some(TypeId(u32::try_from(t).unwrap_or(u32::MAX)))
                } else {
                    None
                };
                out.push(Attribute::Type(AttrKind(k), ty));
            }
            7 => {
                let (Some(k), Some(bit_width)) = (get(i), get(i + 1)) else { break };
                i += 2;
                let Some(range) = constant_range(ops, &mut i, bit_width) else { break };
                out.push(Attribute::Range { kind: AttrKind(k), bit_width, range });
            }
            8 => {
                let (Some(k), Some(count), Some(bit_width)) = (get(i), get(i + 1), get(i + 2)) else { break };
                i += 3;
                let mut ranges = Vec::new();
                for _ in 0..count {
                    // Each range takes at least one operand, so the count is bounded by the record.
                    let Some(r) = constant_range(ops, &mut i, bit_width) else { break };
                    ranges.push(r);
                }
                out.push(Attribute::RangeList { kind: AttrKind(k), bit_width, ranges });
            }
            _ => {
                out.push(Attribute::Unknown { encoding, operands: ops.get(i..).unwrap_or(&[]).to_vec() });
                break;
            }
        }
    }
}

/// A NUL-terminated string of operands (each truncated to a byte, as LLVM does).
fn c_string(ops: &[u64], i: &mut usize) -> String {
    let rest = ops.get(*i..).unwrap_or(&[]);
    let len = rest.iter().position(|&c| c == 0).unwrap_or(rest.len());
    // Past the terminator, if there is one.
    *i += (len + 1).min(rest.len());
    let bytes: Vec<u8> = rest[..len].iter().map(|&c| c as u8).collect();
    String::from_utf8(bytes).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

/// LLVM's `readConstantRange`.
fn constant_range(ops: &[u64], i: &mut usize, bit_width: u64) -> Option<ConstantRange> {
    if bit_width > 64 {
        let words = *ops.get(*i)?;
        *i += 1;
        let (lo_words, hi_words) = ((words & 0xFFFF_FFFF) as usize, (words >> 32) as usize);
        let lower = ops.get(*i..i.checked_add(lo_words)?)?.to_vec();
        *i += lo_words;
        let upper = ops.get(*i..i.checked_add(hi_words)?)?.to_vec();
        *i += hi_words;
        Some(ConstantRange::Wide { lower, upper })
    } else {
        let (lower, upper) = (*ops.get(*i)?, *ops.get(*i + 1)?);
        *i += 2;
        let sext = |v: u64| {
            let v = crate::record::decode_sign_rotated(v);
            if bit_width == 0 || bit_width >= 64 {
                v
            } else {
                let shift = 64 - bit_width;
                (v << shift) >> shift
            }
        };
        Some(ConstantRange::Small { lower: sext(lower), upper: sext(upper) })
    }
}
#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec;

    #[test]
    fn group_records_decode_every_encoding() {
        // enum nounwind, int align 4, "k" (no value), "k2"="v", type byval without a type,
        // range i8 [0, 2), then an encoding from the future.
        let ops = [
            0,
            18,
            1,
            1,
            4,
            3,
            b'k'.into(),
            0,
            4,
            b'k'.into(),
            b'2'.into(),
            0,
            b'v'.into(),
            0,
            5,
            3,
            7,
            92,
            8,
            0,
            4,
            99,
            1,
        ];
        let a = decode_group_attributes(&ops);
        assert_eq!(a[0], Attribute::Enum(AttrKind(18)));
        assert_eq!(a[1], Attribute::Int(AttrKind(1), 4));
        assert_eq!(a[2], Attribute::String { key: "k".into(), value: None });
        assert_eq!(a[3], Attribute::String { key: "k2".into(), value: Some("v".into()) });
        assert_eq!(a[4], Attribute::Type(AttrKind(3), None));
        assert_eq!(
            a[5],
            Attribute::Range { kind: AttrKind(92), bit_width: 8, range: ConstantRange::Small { lower: 0, upper: 2 } }
        );
        assert_eq!(a[6], Attribute::Unknown { encoding: 99, operands: vec![1] });
    }
}
