//! IR modules in the layouts LLVM 3.x and 4.0 wrote, made with the crate's own writer.
//!
//! Files written by old LLVM versions are third-party and not committed, so CI would
//! never exercise the format's upgrade paths. These are written at test time instead:
//! the same small module (globals with initializers, definitions with minimal bodies,
//! declarations, an alias, attributes) in each [`Layout`], every one a file that LLVM
//! 14's reader still accepts and upgrades. Included with `#[path]` by `tests/ir_old_formats.rs`
//! and by `crates/bitstream-dump/tests/nm.rs`.
#![allow(dead_code)]

use llvm_bitstream_reader::AbbrevOp;
use llvm_bitstream_reader::ids::llvm_ir::raw as ids;
use llvm_bitstream_reader::writer::{self, BitstreamWriter};

/// How a module names its global values and finds its function bodies (files before
/// VERSION 2 have no STRTAB).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Naming {
    /// LLVM before 3.8: the module-level VALUE_SYMTAB (VST_CODE_ENTRY only) comes before
    /// the function blocks, which pair with the definitions in order.
    VstBeforeBodies,
    /// LLVM 3.8 to 4.0: MODULE_CODE_VSTOFFSET points at a VALUE_SYMTAB after the bodies,
    /// whose VST_CODE_FNENTRY records give each definition's body offset. The bodies are
    /// in definition order, as LLVM wrote them: LLVM 14 pairs the first body in the
    /// stream with the first definition whatever the offsets say (its
    /// `rememberAndSkipFunctionBody` overrides the VST, and only asserts they agree).
    VstOffsetFnEntry,
}

/// One layout of the module.
#[derive(Clone, Copy, Debug)]
pub struct Layout {
    /// The file name (`.bc` added).
    pub name: &'static str,
    /// An IDENTIFICATION block before the module (LLVM 3.8+).
    pub identification: bool,
    /// MODULE_CODE_VERSION: 0 (absolute value ids in bodies) or 1 (relative ids).
    pub version: u64,
    /// Names and body pairing.
    pub naming: Naming,
    /// LLVM 3.7+: GLOBALVAR records hold the value type with the explicit-type bit, and
    /// FUNCTION records the function type; before, both held the pointer type.
    pub explicit_types: bool,
    /// TYPE_CODE_FUNCTION_OLD ([vararg, attrid, retty, params…]) instead of FUNCTION.
    pub function_type_old: bool,
    /// Attributes as PARAMATTR_CODE_ENTRY_OLD bit masks (LLVM before 3.3) instead of
    /// PARAMATTR_GROUP entries referenced from PARAMATTR_CODE_ENTRY lists.
    pub legacy_attributes: bool,
    /// MODULE_CODE_ALIAS_OLD ([pointer type, aliasee, linkage, visibility]) instead of
    /// MODULE_CODE_ALIAS.
    pub alias_old: bool,
    /// Inside a bitcode wrapper header (as Darwin toolchains wrote it).
    pub wrapped: bool,
}

/// The layouts written, oldest first.
pub const LAYOUTS: [Layout; 6] = [
    Layout {
        name: "gen_v0_noident_vst_attr_old",
        identification: false,
        version: 0,
        naming: Naming::VstBeforeBodies,
        explicit_types: false,
        function_type_old: true,
        legacy_attributes: true,
        alias_old: true,
        wrapped: false,
    },
    Layout {
        name: "gen_v1_noident_vst_attr_old",
        identification: false,
        version: 1,
        naming: Naming::VstBeforeBodies,
        explicit_types: false,
        function_type_old: false,
        legacy_attributes: true,
        alias_old: true,
        wrapped: false,
    },
    Layout {
        name: "gen_v1_noident_vst_groups",
        identification: false,
        version: 1,
        naming: Naming::VstBeforeBodies,
        explicit_types: false,
        function_type_old: false,
        legacy_attributes: false,
        alias_old: true,
        wrapped: false,
    },
    Layout {
        name: "gen_v1_ident_vstoffset_fnentry",
        identification: true,
        version: 1,
        naming: Naming::VstOffsetFnEntry,
        explicit_types: true,
        function_type_old: false,
        legacy_attributes: false,
        alias_old: false,
        wrapped: false,
    },
    Layout {
        name: "gen_v0_ident_vstoffset_fnentry",
        identification: true,
        version: 0,
        naming: Naming::VstOffsetFnEntry,
        explicit_types: true,
        function_type_old: false,
        legacy_attributes: false,
        alias_old: true,
        wrapped: false,
    },
    Layout {
        name: "gen_v1_wrapped_vstoffset_fnentry",
        identification: true,
        version: 1,
        naming: Naming::VstOffsetFnEntry,
        explicit_types: true,
        function_type_old: false,
        legacy_attributes: false,
        alias_old: false,
        wrapped: true,
    },
];

/// The type table (typed pointers), by index.
mod ty {
    pub const I32: u64 = 0;
    pub const I8: u64 = 1;
    pub const VOID: u64 = 2;
    pub const I32_PTR: u64 = 3;
    pub const VOID_FN: u64 = 4;
    pub const I32_FN: u64 = 5;
    pub const VOID_FN_PTR: u64 = 6;
    pub const I32_FN_PTR: u64 = 7;
    pub const I8_AS1_PTR: u64 = 8;
    pub const I8_AS1_PTR_PTR: u64 = 9;
    pub const I8_PTR: u64 = 10;
    pub const PAIR: u64 = 11;
    pub const PAIR_PTR: u64 = 12;
    pub const COUNT: u64 = 13;
}

/// The module constants, in order (value ids follow the global values).
#[derive(Clone, Copy)]
enum Constant {
    /// `i32 42`
    FortyTwo,
    /// `i32 0`
    Zero,
    /// `%struct.pair zeroinitializer`
    PairZero,
    /// `i8 addrspace(1)* null`
    NullAs1,
}

/// A global variable of the module.
pub struct Global {
    pub name: &'static [u8],
    /// The raw linkage code as written (legacy codes included).
    pub linkage: u64,
    pub visibility: u64,
    value_type: u64,
    pointer_type: u64,
    init: Option<Constant>,
    is_const: bool,
}

/// A function of the module.
pub struct Func {
    pub name: &'static [u8],
    pub linkage: u64,
    pub visibility: u64,
    /// `i32 (i32)` (returns its argument) rather than `void ()`.
    returns_arg: bool,
    /// The number of basic blocks of its body (each a lone `ret`); `None`: a declaration.
    pub blocks: Option<u64>,
    /// The attribute list, from 1 (0: none).
    attributes: u64,
}

const fn global(name: &'static [u8], linkage: u64, visibility: u64, init: Option<Constant>) -> Global {
    Global { name, linkage, visibility, value_type: ty::I32, pointer_type: ty::I32_PTR, init, is_const: false }
}

/// The global variables: the legacy linkage codes of LLVM 3.x (1 weak, 4 linkonce, 5
/// dllimport, 6 dllexport, 10 weak_odr, 11 linkonce_odr, 13 linker_private, 14
/// linker_private_weak, 15 linkonce_odr_auto_hide), names in char6, 7-bit and 8-bit.
pub const GLOBALS: [Global; 14] = [
    global(b"counter", 0, 0, Some(Constant::FortyTwo)),
    global(b"old_weak", 1, 0, Some(Constant::Zero)),
    global(b"old_linkonce", 4, 1, Some(Constant::Zero)),
    global(b"old_weak_odr", 10, 0, Some(Constant::Zero)),
    global(b"old_linkonce_odr", 11, 2, Some(Constant::Zero)),
    global(b"dllimport.var", 5, 0, None),
    global(b"dllexport.var", 6, 0, Some(Constant::FortyTwo)),
    global(b"linker_private", 13, 0, Some(Constant::Zero)),
    global(b"linker_private_weak", 14, 0, Some(Constant::Zero)),
    global(b"auto$hide", 15, 0, Some(Constant::Zero)),
    Global {
        name: b"pair",
        linkage: 3,
        visibility: 0,
        value_type: ty::PAIR,
        pointer_type: ty::PAIR_PTR,
        init: Some(Constant::PairZero),
        is_const: true,
    },
    Global {
        name: b"as1.ptr",
        linkage: 0,
        visibility: 0,
        value_type: ty::I8_AS1_PTR,
        pointer_type: ty::I8_AS1_PTR_PTR,
        init: Some(Constant::NullAs1),
        is_const: false,
    },
    global("\u{e9}t\u{e9}".as_bytes(), 8, 0, Some(Constant::Zero)),
    global(b"extern_weak.var", 7, 0, None),
];

/// The functions: definitions with 1 to 5 basic blocks (so a body paired with the wrong
/// definition shows), declarations.
pub const FUNCTIONS: [Func; 8] = [
    Func { name: b"identity", linkage: 0, visibility: 0, returns_arg: true, blocks: Some(1), attributes: 2 },
    Func { name: b"two_blocks", linkage: 3, visibility: 0, returns_arg: false, blocks: Some(2), attributes: 1 },
    Func { name: b"old_weak_fn", linkage: 1, visibility: 0, returns_arg: false, blocks: Some(3), attributes: 1 },
    Func { name: b"ext_fn", linkage: 0, visibility: 0, returns_arg: false, blocks: None, attributes: 0 },
    Func { name: b"dllimport_fn", linkage: 5, visibility: 0, returns_arg: false, blocks: None, attributes: 0 },
    Func {
        name: b"hidden.linkonce_odr",
        linkage: 11,
        visibility: 1,
        returns_arg: false,
        blocks: Some(4),
        attributes: 1,
    },
    Func { name: b"protected$fn", linkage: 16, visibility: 2, returns_arg: true, blocks: Some(5), attributes: 0 },
    Func { name: b"extern_weak_fn", linkage: 7, visibility: 0, returns_arg: false, blocks: None, attributes: 0 },
];

/// The alias: a weak (legacy code 1) alias of `two_blocks`.
pub const ALIAS_NAME: &[u8] = b"alias_of_two_blocks";
const ALIAS_TARGET: u64 = 1;

/// Value ids: globals, then functions, then the alias, then the module constants.
const FIRST_FUNCTION: u64 = GLOBALS.len() as u64;
const ALIAS_ID: u64 = FIRST_FUNCTION + FUNCTIONS.len() as u64;
const FIRST_CONSTANT: u64 = ALIAS_ID + 1;

/// `nounwind`, `noinline` and `zeroext` as PARAMATTR_CODE_ENTRY_OLD bits (LLVM 3.2's
/// `Attribute::encodeLLVMAttributesForBitcode`: bits 0-15 as they are).
const OLD_ZEXT: u64 = 1 << 0;
const OLD_NOUNWIND: u64 = 1 << 5;
const OLD_NOINLINE: u64 = 1 << 11;
const FUNCTION_INDEX: u64 = 0xFFFF_FFFF;

/// The function attribute sets `llvm-dis` prints for the group layouts.
pub const GROUP_ATTRIBUTE_SETS: [&str; 2] = [r#"{ nounwind uwtable "frame-pointer"="all" }"#, "{ noinline nounwind }"];

/// Writes `layout` into `dir`; returns its path.
pub fn write_layout(dir: &std::path::Path, layout: &Layout) -> std::path::PathBuf {
    std::fs::create_dir_all(dir).unwrap();
    let path = dir.join(format!("{}.bc", layout.name));
    std::fs::write(&path, module_bytes(layout)).unwrap();
    path
}

/// Every layout, written into `dir`.
pub fn write_all(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    LAYOUTS.iter().map(|l| write_layout(dir, l)).collect()
}

/// The file's bytes. The VSTOFFSET layout is written twice: the offset (a fixed 32-bit
/// field, as LLVM writes and back-patches it) is known only once the VST has been placed.
pub fn module_bytes(layout: &Layout) -> Vec<u8> {
    let (first, vst_word) = write_module(layout, 0);
    let bytes = if layout.naming == Naming::VstOffsetFnEntry {
        let (second, again) = write_module(layout, vst_word);
        assert_eq!(vst_word, again, "the layout does not depend on the offset");
        second
    } else {
        first
    };
    if layout.wrapped { writer::wrap(&bytes, 0x0100_0007) } else { bytes }
}

/// The word offset LLVM writes for a block that starts at `bit`: relative to one word
/// before the IDENTIFICATION (or MODULE) block, which follows the 32-bit magic.
fn word_offset(bit: u64) -> u64 {
    assert_eq!(bit % 32, 0, "a block LLVM jumps to starts on a 32-bit boundary");
    (bit - 32) / 32 + 1
}

fn chars(s: &[u8]) -> Vec<u64> {
    s.iter().map(|&c| u64::from(c)).collect()
}

/// Returns the stream and the VST's word offset.
fn write_module(layout: &Layout, vst_offset: u64) -> (Vec<u8>, u64) {
    let mut w = BitstreamWriter::new([0x42, 0x43, 0xC0, 0xDE]);
    if layout.identification {
        w.enter_block(ids::IDENTIFICATION_BLOCK_ID, 5);
        w.write_unabbrev(ids::IDENTIFICATION_CODE_STRING, &chars(b"LLVM4.0.0"));
        w.write_unabbrev(ids::IDENTIFICATION_CODE_EPOCH, &[0]);
        w.end_block();
    }
    w.enter_block(ids::MODULE_BLOCK_ID, 3);
    w.write_unabbrev(ids::MODULE_CODE_VERSION, &[layout.version]);
    // The VST abbreviations in BLOCKINFO, inside the module, as LLVM 3.x wrote them:
    // ids 4 (8-bit), 5 (7-bit), 6 (char6), 7 (BBENTRY char6).
    let vst_abbrevs: [[AbbrevOp; 4]; 4] = [
        [AbbrevOp::Fixed(3), AbbrevOp::Vbr(8), AbbrevOp::Array, AbbrevOp::Fixed(8)],
        [AbbrevOp::Literal(ids::VST_CODE_ENTRY.into()), AbbrevOp::Vbr(8), AbbrevOp::Array, AbbrevOp::Fixed(7)],
        [AbbrevOp::Literal(ids::VST_CODE_ENTRY.into()), AbbrevOp::Vbr(8), AbbrevOp::Array, AbbrevOp::Char6],
        [AbbrevOp::Literal(ids::VST_CODE_BBENTRY.into()), AbbrevOp::Vbr(8), AbbrevOp::Array, AbbrevOp::Char6],
    ];
    w.enter_blockinfo();
    w.set_bid(ids::VALUE_SYMTAB_BLOCK_ID);
    for a in &vst_abbrevs {
        w.define_abbrev(a);
    }
    w.end_block();

    write_attributes(&mut w, layout);
    write_types(&mut w, layout);
    w.write_unabbrev(ids::MODULE_CODE_TRIPLE, &chars(b"x86_64-unknown-linux-gnu"));
    w.write_unabbrev(ids::MODULE_CODE_DATALAYOUT, &chars(b"e-m:e-i64:64-f80:128-n8:16:32:64-S128"));

    let vst_offset_abbrev = [AbbrevOp::Literal(ids::MODULE_CODE_VSTOFFSET.into()), AbbrevOp::Fixed(32)];
    if layout.naming == Naming::VstOffsetFnEntry {
        w.define_abbrev(&vst_offset_abbrev);
        w.write_abbreviated(4, &vst_offset_abbrev, ids::MODULE_CODE_VSTOFFSET, &[vst_offset], None).unwrap();
    }
    let constant_id = |c: Constant| FIRST_CONSTANT + c as u64;
    for g in &GLOBALS {
        let (ty, flags) = if layout.explicit_types {
            (g.value_type, u64::from(g.is_const) | 2)
        } else {
            (g.pointer_type, u64::from(g.is_const))
        };
        let init = g.init.map_or(0, |c| constant_id(c) + 1);
        // [type, isconst, initid, linkage, alignment, section, visibility, tls, …]
        let mut record = vec![ty, flags, init, g.linkage, 3, 0];
        if layout.explicit_types {
            // LLVM 3.7+: … unnamed_addr, externally_initialized, dllstorageclass, comdat.
            record.extend([g.visibility, 0, 0, 0, 0, 0]);
        } else if g.visibility != 0 {
            record.extend([g.visibility, 0]);
        }
        w.write_unabbrev(ids::MODULE_CODE_GLOBALVAR, &record);
    }
    for f in &FUNCTIONS {
        let ty = match (layout.explicit_types, f.returns_arg) {
            (true, true) => ty::I32_FN,
            (true, false) => ty::VOID_FN,
            (false, true) => ty::I32_FN_PTR,
            (false, false) => ty::VOID_FN_PTR,
        };
        // [type, callingconv, isproto, linkage, paramattr, alignment, section, visibility,
        //  gc, unnamed_addr]
        let mut record = vec![ty, 0, u64::from(f.blocks.is_none()), f.linkage, f.attributes, 0, 0, f.visibility, 0, 0];
        if layout.explicit_types {
            // LLVM 3.8-4.0: … prologuedata, dllstorageclass, comdat, prefixdata, personality.
            record.extend([0, 0, 0, 0, 0]);
        }
        w.write_unabbrev(ids::MODULE_CODE_FUNCTION, &record);
    }
    let target = FIRST_FUNCTION + ALIAS_TARGET;
    if layout.alias_old {
        // [alias type (a pointer), aliasee, linkage, visibility]
        w.write_unabbrev(ids::MODULE_CODE_ALIAS_OLD, &[ty::VOID_FN_PTR, target, 1, 0]);
    } else {
        // [alias value type, address space, aliasee, linkage, visibility, dll, tls, unnamed_addr]
        w.write_unabbrev(ids::MODULE_CODE_ALIAS, &[ty::VOID_FN, 0, target, 1, 0, 0, 0, 0]);
    }

    w.enter_block(ids::CONSTANTS_BLOCK_ID, 4);
    w.write_unabbrev(ids::CST_CODE_SETTYPE, &[ty::I32]);
    w.write_unabbrev(ids::CST_CODE_INTEGER, &[42 << 1]); // sign-rotated
    w.write_unabbrev(ids::CST_CODE_NULL, &[]);
    w.write_unabbrev(ids::CST_CODE_SETTYPE, &[ty::PAIR]);
    w.write_unabbrev(ids::CST_CODE_NULL, &[]);
    w.write_unabbrev(ids::CST_CODE_SETTYPE, &[ty::I8_AS1_PTR]);
    w.write_unabbrev(ids::CST_CODE_NULL, &[]);
    w.end_block();

    let mut vst_word = 0;
    match layout.naming {
        Naming::VstBeforeBodies => {
            write_vst(&mut w, &[]);
            for f in FUNCTIONS.iter().filter(|f| f.blocks.is_some()) {
                write_body(&mut w, layout, f);
            }
        }
        Naming::VstOffsetFnEntry => {
            let mut offsets = Vec::new();
            for (i, f) in FUNCTIONS.iter().enumerate().filter(|(_, f)| f.blocks.is_some()) {
                offsets.push((FIRST_FUNCTION + i as u64, word_offset(w.bit_position())));
                write_body(&mut w, layout, f);
            }
            vst_word = word_offset(w.bit_position());
            write_vst(&mut w, &offsets);
        }
    }
    w.end_block();
    (w.finish(), vst_word)
}

fn write_attributes(w: &mut BitstreamWriter, layout: &Layout) {
    if layout.legacy_attributes {
        w.enter_block(ids::PARAMATTR_BLOCK_ID, 3);
        // List 1: function nounwind. List 2: zeroext return, noinline nounwind function.
        w.write_unabbrev(ids::PARAMATTR_CODE_ENTRY_OLD, &[FUNCTION_INDEX, OLD_NOUNWIND]);
        w.write_unabbrev(ids::PARAMATTR_CODE_ENTRY_OLD, &[0, OLD_ZEXT, FUNCTION_INDEX, OLD_NOINLINE | OLD_NOUNWIND]);
        w.end_block();
        return;
    }
    w.enter_block(ids::PARAMATTR_GROUP_BLOCK_ID, 3);
    // [grpid, paramidx, (kind, attr…)…]: 0 an enum attribute, 4 a string key and value.
    let mut g1 = vec![1, FUNCTION_INDEX, 0, ids::ATTR_KIND_NO_UNWIND.into(), 0, ids::ATTR_KIND_UW_TABLE.into(), 4];
    g1.extend(chars(b"frame-pointer\0all\0"));
    w.write_unabbrev(ids::PARAMATTR_GRP_CODE_ENTRY, &g1);
    w.write_unabbrev(
        ids::PARAMATTR_GRP_CODE_ENTRY,
        &[2, FUNCTION_INDEX, 0, ids::ATTR_KIND_NO_INLINE.into(), 0, ids::ATTR_KIND_NO_UNWIND.into()],
    );
    w.write_unabbrev(ids::PARAMATTR_GRP_CODE_ENTRY, &[3, 0, 0, ids::ATTR_KIND_Z_EXT.into()]);
    w.end_block();
    w.enter_block(ids::PARAMATTR_BLOCK_ID, 3);
    w.write_unabbrev(ids::PARAMATTR_CODE_ENTRY, &[1]);
    w.write_unabbrev(ids::PARAMATTR_CODE_ENTRY, &[3, 2]);
    w.end_block();
}

fn write_types(w: &mut BitstreamWriter, layout: &Layout) {
    w.enter_block(ids::TYPE_BLOCK_ID_NEW, 4);
    w.write_unabbrev(ids::TYPE_CODE_NUMENTRY, &[ty::COUNT]);
    w.write_unabbrev(ids::TYPE_CODE_INTEGER, &[32]);
    w.write_unabbrev(ids::TYPE_CODE_INTEGER, &[8]);
    w.write_unabbrev(ids::TYPE_CODE_VOID, &[]);
    w.write_unabbrev(ids::TYPE_CODE_POINTER, &[ty::I32, 0]);
    if layout.function_type_old {
        // [vararg, attrid, retty, paramty…]
        w.write_unabbrev(ids::TYPE_CODE_FUNCTION_OLD, &[0, 0, ty::VOID]);
        w.write_unabbrev(ids::TYPE_CODE_FUNCTION_OLD, &[0, 0, ty::I32, ty::I32]);
    } else {
        // [vararg, retty, paramty…]
        w.write_unabbrev(ids::TYPE_CODE_FUNCTION, &[0, ty::VOID]);
        w.write_unabbrev(ids::TYPE_CODE_FUNCTION, &[0, ty::I32, ty::I32]);
    }
    w.write_unabbrev(ids::TYPE_CODE_POINTER, &[ty::VOID_FN, 0]);
    w.write_unabbrev(ids::TYPE_CODE_POINTER, &[ty::I32_FN, 0]);
    w.write_unabbrev(ids::TYPE_CODE_POINTER, &[ty::I8, 1]);
    w.write_unabbrev(ids::TYPE_CODE_POINTER, &[ty::I8_AS1_PTR, 0]);
    w.write_unabbrev(ids::TYPE_CODE_POINTER, &[ty::I8, 0]);
    w.write_unabbrev(ids::TYPE_CODE_STRUCT_NAME, &chars(b"struct.pair"));
    w.write_unabbrev(ids::TYPE_CODE_STRUCT_NAMED, &[0, ty::I32, ty::I8_PTR]);
    w.write_unabbrev(ids::TYPE_CODE_POINTER, &[ty::PAIR, 0]);
    w.end_block();
}

/// A body of `f.blocks` basic blocks, each a lone `ret` (of the argument, for `i32 (i32)`).
fn write_body(w: &mut BitstreamWriter, layout: &Layout, f: &Func) {
    let blocks = f.blocks.expect("a definition");
    w.enter_block(ids::FUNCTION_BLOCK_ID, 4);
    w.write_unabbrev(ids::FUNC_CODE_DECLAREBLOCKS, &[blocks]);
    // The argument's value id follows the module's values; the first instruction's is
    // one past it. VERSION 0 writes absolute ids, VERSION 1 relative ones.
    let argument = FIRST_CONSTANT + 4;
    let operand = if layout.version == 0 { argument } else { 1 };
    for _ in 0..blocks {
        if f.returns_arg {
            w.write_unabbrev(ids::FUNC_CODE_INST_RET, &[operand]);
        } else {
            w.write_unabbrev(ids::FUNC_CODE_INST_RET, &[]);
        }
    }
    w.end_block();
}

/// The module-level VALUE_SYMTAB: VST_CODE_ENTRY for every name (char6, 7-bit or 8-bit
/// arrays, whichever the name fits), or VST_CODE_FNENTRY for a value with a body offset.
fn write_vst(w: &mut BitstreamWriter, fn_offsets: &[(u64, u64)]) {
    w.enter_block(ids::VALUE_SYMTAB_BLOCK_ID, 4);
    let fnentry = |elem| {
        [AbbrevOp::Literal(ids::VST_CODE_FNENTRY.into()), AbbrevOp::Vbr(8), AbbrevOp::Vbr(8), AbbrevOp::Array, elem]
    };
    // Local abbreviations follow BLOCKINFO's four: ids 8 (8-bit), 9 (7-bit), 10 (char6).
    let fn_abbrevs = [fnentry(AbbrevOp::Fixed(8)), fnentry(AbbrevOp::Fixed(7)), fnentry(AbbrevOp::Char6)];
    if !fn_offsets.is_empty() {
        for a in &fn_abbrevs {
            w.define_abbrev(a);
        }
    }
    let entry_abbrevs: [[AbbrevOp; 4]; 3] = [
        [AbbrevOp::Fixed(3), AbbrevOp::Vbr(8), AbbrevOp::Array, AbbrevOp::Fixed(8)],
        [AbbrevOp::Literal(ids::VST_CODE_ENTRY.into()), AbbrevOp::Vbr(8), AbbrevOp::Array, AbbrevOp::Fixed(7)],
        [AbbrevOp::Literal(ids::VST_CODE_ENTRY.into()), AbbrevOp::Vbr(8), AbbrevOp::Array, AbbrevOp::Char6],
    ];
    let names = GLOBALS.iter().map(|g| g.name).chain(FUNCTIONS.iter().map(|f| f.name)).chain([ALIAS_NAME]);
    // LLVM wrote the VST in hash-table order; reversed here, so ids are not in order.
    let names: Vec<(u64, &[u8])> = names.enumerate().map(|(i, n)| (i as u64, n)).collect();
    for &(id, name) in names.iter().rev() {
        let width = if name.iter().all(|&c| writer::encode_char6(c).is_some()) {
            2
        } else if name.is_ascii() {
            1
        } else {
            0
        };
        let mut ops = vec![id];
        match fn_offsets.iter().find(|(v, _)| *v == id) {
            Some(&(_, offset)) => {
                ops.push(offset);
                ops.extend(chars(name));
                w.write_abbreviated(8 + width, &fn_abbrevs[width as usize], ids::VST_CODE_FNENTRY, &ops, None).unwrap();
            }
            None => {
                ops.extend(chars(name));
                w.write_abbreviated(4 + width, &entry_abbrevs[width as usize], ids::VST_CODE_ENTRY, &ops, None)
                    .unwrap();
            }
        }
    }
    w.end_block();
}
