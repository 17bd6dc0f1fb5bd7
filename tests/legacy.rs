//! LLVM 1.x bytecode: files built byte by byte from the format description (no tool
//! writes them any more), then detected, walked and decoded; truncated and damaged
//! copies must give typed errors, never panics.

use llvm_bitstream_reader::legacy::{
    self, Block, BlockKind, ByteReader, Bytecode, BytecodeVersion, Compression, Endianness, FormatInfo, HeaderForm,
    LegacyError, PointerSize, Signature,
};

mod legacy_writer;
use legacy_writer::{Item, cat, file, raw, string, svbr, vbr};

// ---------------------------------------------------------------------------------------
// The module of the tests: the format description's layout.

/// Type ids (LLVM 1.x `Type::TypeID`).
const INT: u64 = 7;
const LABEL: u64 = 12;
const FUNCTION_TY: u64 = 13;
const POINTER_TY: u64 = 16;
/// Slots of the derived types in the global type pool (the first derived slot is 13).
const FN_TY_SLOT: u64 = 13;
const FN_PTR_SLOT: u64 = 14;
const INT_PTR_SLOT: u64 = 15;

fn type_pool() -> Vec<u8> {
    cat(&[
        &vbr(3),                                        // llist(type): three types
        &cat(&[&vbr(FUNCTION_TY), &vbr(INT), &vbr(0)]), // int (): return int, no arguments
        &cat(&[&vbr(POINTER_TY), &vbr(FN_TY_SLOT)]),    // int ()*
        &cat(&[&vbr(POINTER_TY), &vbr(INT)]),           // int*
    ])
}

fn globals_info() -> Vec<u8> {
    cat(&[
        // zlist(globalvar): `@answer = global int 0`: has initializer, external, slot 15.
        &vbr(INT_PTR_SLOT << 5 | 0b10),
        &vbr(0), // initializer: value slot 0
        &vbr(0), // end of globals
        // zlist(funcfield): `int %main()`: calling convention 0 (+1), defined, slot 14.
        &vbr(FN_PTR_SLOT << 5 | 1),
        &vbr(0), // end of functions
        // llist(string): dependent libraries
        &vbr(1),
        &string("c"),
        &string("i686-pc-linux-gnu"), // target triple
        &vbr(0),                      // llist(string): no sections
        &string(""),                  // no inline asm
    ])
}

fn constant_pool() -> Vec<u8> {
    // One plane of one int constant: no operands, then int64_vbr 42.
    cat(&[&vbr(1), &vbr(INT), &vbr(0), &svbr(42)])
}

fn instructions() -> Vec<u8> {
    // Format 2: `add int %0, %0`; format 1: `ret int %1` (both a fixed 32-bit word, as
    // LLVM's reader and writer have them); format 0: `ret int %1` again, long form
    // (opcode << 2, type, operand count, operands, as VBRs).
    let add = (2 | 7 << 2 | INT << 8) as u32;
    let ret = (1 | 1 << 2 | INT << 8 | 1 << 20) as u32;
    cat(&[&add.to_le_bytes(), &ret.to_le_bytes(), &vbr(1 << 2), &vbr(INT), &vbr(1), &vbr(1)])
}

fn function_symbols() -> Vec<u8> {
    // No type names; then planes to the end of the block (the format description says
    // an llist, but LLVM's writer and reader have no count): one plane (labels) with one
    // entry, slot 0 is "entry".
    cat(&[&vbr(0), &vbr(1), &vbr(LABEL), &vbr(0), &string("entry")])
}

fn module_symbols() -> Vec<u8> {
    cat(&[
        &vbr(1), // one type name
        &vbr(FN_TY_SLOT),
        &string("fnty"),
        // Two planes, to the end of the block. Slot 0 of a pointer plane is its null: the
        // first global of each is slot 1.
        &vbr(1),
        &vbr(FN_PTR_SLOT),
        &vbr(1),
        &string("main"),
        &vbr(1),
        &vbr(INT_PTR_SLOT),
        &vbr(1),
        &string("answer"),
    ])
}

/// Block ids of one header form.
struct Ids {
    function: u32,
    constant_pool: u32,
    symbol_table: u32,
    globals: u32,
    types: u32,
    instructions: u32,
}

const SHORT: Ids = Ids { function: 2, constant_pool: 3, symbol_table: 4, globals: 5, types: 6, instructions: 7 };
const LONG: Ids =
    Ids { function: 0x11, constant_pool: 0x12, symbol_table: 0x13, globals: 0x14, types: 0x15, instructions: 0x32 };

/// The module's content. `pad` puts the seed's 32-bit padding after the format
/// information, after the linkage and after every block.
fn content(version: u64, flags: u64, ids: &Ids, pad: bool) -> Vec<Item> {
    let p = || if pad { Item::Pad } else { raw([]) };
    vec![
        raw(vbr(version << 4 | flags)),
        p(),
        Item::Block(ids.types, vec![raw(type_pool())]),
        p(),
        Item::Block(ids.globals, vec![raw(globals_info())]),
        p(),
        Item::Block(ids.constant_pool, vec![raw(constant_pool())]),
        p(),
        Item::Block(
            ids.function,
            vec![
                raw(vbr(3)), // internal linkage
                p(),
                Item::Block(ids.instructions, vec![raw(instructions())]),
                p(),
                Item::Block(ids.symbol_table, vec![raw(function_symbols())]),
                p(),
            ],
        ),
        p(),
        Item::Block(ids.symbol_table, vec![raw(module_symbols())]),
        p(),
    ]
}

/// Version 5 (LLVM 1.4), laid out as the format description says: padded.
fn v5_padded() -> Vec<u8> {
    file(b"llvm", HeaderForm::Short, content(5, 0, &SHORT, true))
}

/// Version 5 as LLVM 1.4's writer wrote it: no padding.
fn v5_unpadded() -> Vec<u8> {
    file(b"llvm", HeaderForm::Short, content(5, 0, &SHORT, false))
}

/// The shape every walk of the test module must have: (depth, kind, name).
const SHAPE: [(usize, BlockKind, &str); 7] = [
    (1, BlockKind::GlobalTypePool, "Global Type Pool"),
    (1, BlockKind::ModuleGlobalInfo, "Module Globals Info"),
    (1, BlockKind::ConstantPool, "Module Constant Pool"),
    (1, BlockKind::Function, "Function Definition"),
    (2, BlockKind::InstructionList, "Instruction List"),
    (2, BlockKind::SymbolTable, "Function Symbol Table"),
    (1, BlockKind::SymbolTable, "Module Symbol Table"),
];

fn shape(module: &Bytecode<'_>) -> Vec<(usize, BlockKind, &'static str)> {
    module.walk().map(|b| (b.depth, b.kind, b.name())).collect()
}

fn payloads() -> [Vec<u8>; 6] {
    [type_pool(), globals_info(), constant_pool(), instructions(), function_symbols(), module_symbols()]
}

/// Checks each leaf payload is exactly what was written.
fn check_payloads(module: &Bytecode<'_>) {
    let leaves: Vec<&[u8]> = module.walk().filter(|b| !b.has_children()).map(|b| b.payload).collect();
    let expected = payloads();
    assert_eq!(leaves.len(), expected.len());
    for (got, want) in leaves.iter().zip(&expected) {
        assert_eq!(got, &want.as_slice());
    }
}

/// Checks the offsets are consistent: each payload is where its header says in the input.
fn check_offsets(module: &Bytecode<'_>) {
    let input = module.input();
    for b in module.walk() {
        assert_eq!(b.payload_offset(), b.offset + b.header.byte_len());
        assert_eq!(&input[b.payload_offset()..b.end()], b.payload);
        assert_eq!(b.size(), b.payload.len());
        assert!(b.end() <= module.payload_offset() + module.size() as usize);
    }
}

// ---------------------------------------------------------------------------------------
// Detection.

#[test]
fn detects_signatures() {
    assert_eq!(legacy::detect(b"llvm"), Some(Signature::Uncompressed));
    assert_eq!(legacy::detect(b"llvc0"), Some(Signature::Compressed(Compression::Null)));
    assert_eq!(legacy::detect(b"llvc1\x78\x9c"), Some(Signature::Compressed(Compression::Gzip)));
    assert_eq!(legacy::detect(b"llvc2BZh"), Some(Signature::Compressed(Compression::Bzip2)));
    for not in [&b""[..], b"l", b"llv", b"llvc", b"llvc3", b"llvcz", b"LLVM", b"BC\xC0\xDE", b"\xDE\xC0\x17\x0B"] {
        assert_eq!(legacy::detect(not), None, "{not:?}");
    }
    assert_eq!(Signature::Uncompressed.byte_len(), 4);
    assert_eq!(Signature::Compressed(Compression::Bzip2).byte_len(), 5);
    assert_eq!(Signature::Compressed(Compression::Gzip).compression(), Some(Compression::Gzip));
    assert_eq!(Signature::Compressed(Compression::Bzip2).to_string(), "llvc2 (bzip2-compressed)");
    for c in [Compression::Null, Compression::Gzip, Compression::Bzip2] {
        assert_eq!(Compression::from_digit(c.digit()), Some(c));
    }
}

#[test]
fn bitstream_files_are_not_legacy() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata");
    let globals = std::fs::read(dir.join("llvm14_ir_globals.bc")).unwrap();
    assert_eq!(legacy::detect(&globals), None);
    assert_eq!(Bytecode::parse(&globals).unwrap_err(), LegacyError::NotLegacy { offset: 0 });
    let mut checked = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_file() {
            let bytes = std::fs::read(&path).unwrap();
            assert_eq!(legacy::detect(&bytes), None, "{}", path.display());
            assert!(Bytecode::parse(&bytes).is_err());
            checked += 1;
        }
    }
    assert!(checked >= 10);
}

#[test]
fn signature_errors() {
    assert_eq!(Bytecode::parse(b"").unwrap_err(), LegacyError::NotLegacy { offset: 0 });
    assert_eq!(Bytecode::parse(b"llvc").unwrap_err().byte_offset(), 4);
    assert_eq!(Bytecode::parse(b"llvc").unwrap_err().bit_offset(), 32);
    assert!(matches!(Bytecode::parse(b"llvc").unwrap_err(), LegacyError::Truncated { offset: 4, .. }));
    assert_eq!(Bytecode::parse(b"llvc9xxxx").unwrap_err(), LegacyError::UnknownCompression { offset: 4, digit: b'9' });
    assert_eq!(
        Bytecode::parse(b"llvc1xxxx").unwrap_err(),
        LegacyError::Compressed { offset: 4, compression: Compression::Gzip }
    );
    assert_eq!(
        Bytecode::parse(b"llvc2BZh9").unwrap_err(),
        LegacyError::Compressed { offset: 4, compression: Compression::Bzip2 }
    );
    let err = Bytecode::parse(b"llvc2").unwrap_err().to_string();
    assert!(err.contains("bzip2") && err.contains("decompress"), "{err}");
}

// ---------------------------------------------------------------------------------------
// The walk.

#[test]
fn walks_version_5_as_the_format_description_lays_it_out() {
    let bytes = v5_padded();
    let module = Bytecode::parse(&bytes).unwrap();
    assert_eq!(module.signature(), Signature::Uncompressed);
    assert_eq!(module.offset(), 4);
    assert_eq!(module.payload_offset(), 12);
    assert_eq!(module.size() as usize, bytes.len() - 12);
    assert_eq!(module.trailing(), b"");
    let format = module.format();
    assert_eq!(format, FormatInfo::from_raw(0x50));
    assert_eq!(format.version, BytecodeVersion(5));
    assert_eq!(format.version.llvm_releases(), Some("LLVM 1.4, 1.5, 1.6"));
    assert_eq!((format.endianness, format.pointer_size), (Endianness::Little, PointerSize::Bits32));
    assert_eq!(module.header_form(), HeaderForm::Short);
    // Format information (1 byte) and 3 bytes of padding.
    assert_eq!(module.blocks_offset(), 16);
    assert_eq!(shape(&module), SHAPE);
    check_payloads(&module);
    check_offsets(&module);

    // Offsets and sizes by hand: every block starts 32-bit aligned.
    let blocks: Vec<Block<'_>> = module.blocks().collect();
    let sizes: Vec<usize> = blocks.iter().map(Block::size).collect();
    let p = payloads();
    assert_eq!(blocks[0].offset, 16);
    assert_eq!(blocks[0].id, 6);
    assert_eq!(sizes[0], p[0].len());
    let mut expected_offset = 16;
    for b in &blocks {
        assert_eq!(b.offset, expected_offset);
        assert_eq!(b.offset % 4, 0);
        expected_offset = b.end().div_ceil(4) * 4;
    }
    assert_eq!(expected_offset, bytes.len());

    let function = blocks[3];
    assert_eq!(function.kind, BlockKind::Function);
    assert!(function.has_children());
    assert_eq!(function.linkage(), Some(3));
    let children: Vec<Block<'_>> = function.children().collect();
    assert_eq!(children.len(), 2);
    // Linkage (1 byte) and padding to the next 32-bit boundary.
    assert_eq!(children[0].offset, function.payload_offset() + 4);
    assert_eq!(children[0].parent, BlockKind::Function);
    assert_eq!(children[1].kind, BlockKind::SymbolTable);
    assert!(!children[0].has_children());
    assert_eq!(children[0].children().count(), 0);
    assert_eq!(children[0].linkage(), None);
    assert_eq!(blocks[4].linkage(), None);
}

#[test]
fn walks_version_5_as_llvm_1_4_wrote_it() {
    let bytes = v5_unpadded();
    let module = Bytecode::parse(&bytes).unwrap();
    assert_eq!(module.blocks_offset(), 13);
    assert_eq!(shape(&module), SHAPE);
    check_payloads(&module);
    check_offsets(&module);
    // Blocks follow each other with no gap.
    let blocks: Vec<Block<'_>> = module.blocks().collect();
    for pair in blocks.windows(2) {
        assert_eq!(pair[0].end(), pair[1].offset);
    }
    assert_eq!(blocks.last().unwrap().end(), bytes.len());
    let function = blocks[3];
    assert_eq!(function.children().next().unwrap().offset, function.payload_offset() + 1);
}

#[test]
fn walks_version_3_with_required_alignment() {
    let bytes = file(b"llvm", HeaderForm::Short, content(3, 0, &SHORT, true));
    let module = Bytecode::parse(&bytes).unwrap();
    assert_eq!(module.format().version.llvm_releases(), Some("LLVM 1.3"));
    assert!(module.format().version.is_aligned());
    assert_eq!(shape(&module), SHAPE);
    check_payloads(&module);

    // Versions 0-3 skip the padding whatever it holds, as LLVM's reader does.
    let mut odd = bytes.clone();
    let unaligned = module.walk().find(|b| b.end() % 4 != 0).unwrap();
    odd[unaligned.end()] = 0xAA;
    let module = Bytecode::parse(&odd).unwrap();
    assert_eq!(shape(&module), SHAPE);

    // Without padding, version 3 misreads the stream, and says so (no panic).
    let unpadded = file(b"llvm", HeaderForm::Short, content(3, 0, &SHORT, false));
    assert!(Bytecode::parse(&unpadded).is_err());
}

#[test]
fn version_3_padding_must_stay_in_the_container() {
    // A 1-byte type pool ending the module unaligned: its padding would pass the end.
    let bytes = file(b"llvm", HeaderForm::Short, vec![raw(vbr(3 << 4)), Item::Pad, Item::Block(6, vec![raw([0])])]);
    let err = Bytecode::parse(&bytes).unwrap_err();
    assert_eq!(err, LegacyError::AlignmentPastEnd { offset: bytes.len(), end: bytes.len() });
    // Version 5 does not align, so the same layout is fine.
    let bytes = file(b"llvm", HeaderForm::Short, vec![raw(vbr(5 << 4)), Item::Pad, Item::Block(6, vec![raw([0])])]);
    assert_eq!(Bytecode::parse(&bytes).unwrap().blocks().count(), 1);
}

#[test]
fn walks_long_headers_of_versions_0_to_2() {
    for version in 0..=2 {
        let bytes = file(b"llvm", HeaderForm::Long, content(version, 0, &LONG, true));
        let module = Bytecode::parse(&bytes).unwrap();
        assert_eq!(module.header_form(), HeaderForm::Long, "version {version}");
        assert_eq!(shape(&module), SHAPE);
        check_payloads(&module);
        check_offsets(&module);
        let ids: Vec<u32> = module.walk().map(|b| b.id).collect();
        assert_eq!(ids, [0x15, 0x14, 0x12, 0x11, 0x32, 0x13, 0x13]);
        assert!(module.walk().all(|b| b.header == HeaderForm::Long));
    }
    let releases: Vec<_> = (0..=2).map(|v| BytecodeVersion(v).llvm_releases().unwrap()).collect();
    assert_eq!(releases, ["LLVM 1.0, 1.1", "LLVM 1.2", "LLVM 1.2.5 (not released)"]);
}

#[test]
fn walks_llvm_1_0_basic_blocks() {
    // Version 0: a function body made of Basic Block blocks (0x31), not an instruction list.
    let bytes = file(
        b"llvm",
        HeaderForm::Long,
        vec![
            raw(vbr(0)),
            Item::Pad,
            Item::Block(0x15, vec![raw(type_pool())]),
            Item::Pad,
            Item::Block(
                0x11,
                vec![
                    raw(vbr(0)),
                    Item::Pad,
                    Item::Block(0x31, vec![raw(vbr(1 | 1 << 2 | INT << 8 | 0xFFF << 20))]),
                    Item::Pad,
                    Item::Block(0x31, vec![raw(vbr(1 | 1 << 2))]),
                    Item::Pad,
                ],
            ),
            Item::Pad,
        ],
    );
    let module = Bytecode::parse(&bytes).unwrap();
    let kinds: Vec<BlockKind> = module.walk().map(|b| b.kind).collect();
    assert_eq!(kinds, [BlockKind::GlobalTypePool, BlockKind::Function, BlockKind::BasicBlock, BlockKind::BasicBlock]);
}

#[test]
fn null_compressed_files_are_read_in_place() {
    let plain = v5_padded();
    let mut bytes = b"llvc0".to_vec();
    bytes.extend_from_slice(&plain[4..]);
    let module = Bytecode::parse(&bytes).unwrap();
    assert_eq!(module.signature(), Signature::Compressed(Compression::Null));
    assert_eq!(module.offset(), 5);
    assert_eq!(shape(&module), SHAPE);
    check_payloads(&module);
    check_offsets(&module);
    // Everything is one byte further on, padding included (counted from the module block).
    let plain_module = Bytecode::parse(&plain).unwrap();
    let offsets = |m: &Bytecode<'_>| m.walk().map(|b| b.offset).collect::<Vec<_>>();
    let shifted: Vec<usize> = offsets(&plain_module).iter().map(|o| o + 1).collect();
    assert_eq!(offsets(&module), shifted);
}

#[test]
fn format_information_flags_and_unknown_versions() {
    let cases = [
        (0x51, Endianness::Big, PointerSize::Bits32),
        (0x52, Endianness::Little, PointerSize::Bits64),
        (0x53, Endianness::Big, PointerSize::Bits64),
        (0x5C, Endianness::Unspecified, PointerSize::Unspecified),
        (0x5F, Endianness::Unspecified, PointerSize::Unspecified),
    ];
    for (raw_info, endianness, pointer_size) in cases {
        let mut items = content(5, 0, &SHORT, true);
        items[0] = raw(vbr(raw_info));
        let bytes = file(b"llvm", HeaderForm::Short, items);
        let format = Bytecode::parse(&bytes).unwrap().format();
        assert_eq!((format.endianness, format.pointer_size), (endianness, pointer_size), "{raw_info:#x}");
        assert_eq!(format.raw, raw_info as u32);
    }
    // A version past the table: walked as version 5, release unknown.
    let bytes = file(b"llvm", HeaderForm::Short, content(7, 0, &SHORT, false));
    let module = Bytecode::parse(&bytes).unwrap();
    assert_eq!(module.format().version.number(), 7);
    assert!(!module.format().version.is_known());
    assert_eq!(module.format().version.llvm_releases(), None);
    assert_eq!(shape(&module), SHAPE);
    assert!(module.format().version.to_string().contains("unknown"));
    assert_eq!(BytecodeVersion(4).llvm_releases(), Some("LLVM 1.3.x (not released)"));
    // The largest version: the format information takes five bytes.
    let mut items = content(0, 0, &SHORT, false);
    items[0] = raw(vbr(u32::MAX as u64));
    let bytes = file(b"llvm", HeaderForm::Short, items);
    assert_eq!(Bytecode::parse(&bytes).unwrap().format().version.number(), u32::MAX >> 4);
}

#[test]
fn unknown_blocks_and_trailing_bytes() {
    let bytes = file(
        b"llvm",
        HeaderForm::Short,
        vec![
            raw(vbr(5 << 4)),
            Item::Block(6, vec![raw(type_pool())]),
            Item::Block(31, vec![raw([1, 2, 3])]),
            Item::Block(9, vec![]),
            // A function block inside a function block is a leaf.
            Item::Block(2, vec![raw(vbr(0)), Item::Block(2, vec![raw(vbr(0)), Item::Block(7, vec![raw([5])])])]),
        ],
    );
    let mut with_trailing = bytes.clone();
    with_trailing.extend_from_slice(b"ranlib garbage");
    let module = Bytecode::parse(&with_trailing).unwrap();
    assert_eq!(module.trailing(), b"ranlib garbage");
    let walked: Vec<(usize, BlockKind, usize)> = module.walk().map(|b| (b.depth, b.kind, b.size())).collect();
    assert_eq!(
        walked,
        [
            (1, BlockKind::GlobalTypePool, type_pool().len()),
            (1, BlockKind::Unknown(31), 3),
            (1, BlockKind::Unknown(9), 0),
            (1, BlockKind::Function, 11),
            (2, BlockKind::Function, 6),
        ]
    );
    assert_eq!(BlockKind::Unknown(31).to_string(), "Unknown block type 31");
    assert_eq!(BlockKind::from_long_id(0x33), BlockKind::CompactionTable);
    assert_eq!(BlockKind::from_long_id(0x16), BlockKind::DependentLibs);
    assert_eq!(BlockKind::from_short_id(8), BlockKind::CompactionTable);
    assert_eq!(BlockKind::from_short_id(0x11), BlockKind::Unknown(0x11));
    assert_eq!(BlockKind::CompactionTable.name(), "Compaction Table");
}

#[test]
fn compaction_table_in_a_function() {
    let bytes = file(
        b"llvm",
        HeaderForm::Short,
        vec![
            raw(vbr(5 << 4)),
            Item::Block(
                2,
                vec![
                    raw(vbr(0)),
                    // One type (int), then a plane of one value: length 1 in bits 0-1, type 0 above.
                    Item::Block(8, vec![raw(cat(&[&vbr(1), &vbr(INT), &vbr(1), &vbr(0)]))]),
                    Item::Block(3, vec![raw(cat(&[&vbr(0)]))]),
                    Item::Block(7, vec![raw(instructions())]),
                ],
            ),
        ],
    );
    let module = Bytecode::parse(&bytes).unwrap();
    let names: Vec<&str> = module.walk().map(|b| b.name()).collect();
    assert_eq!(names, ["Function Definition", "Compaction Table", "Function Constant Pool", "Instruction List"]);
}

// ---------------------------------------------------------------------------------------
// Decoding payloads with the primitives.

#[test]
fn decodes_the_payloads_with_the_primitives() {
    let bytes = v5_padded();
    let module = Bytecode::parse(&bytes).unwrap();
    let blocks: Vec<Block<'_>> = module.walk().collect();

    // Global type pool: llist(type).
    let mut r = blocks[0].reader();
    assert_eq!(r.offset(), blocks[0].payload_offset());
    let types = r
        .read_llist(|r| {
            let id = r.read_vbr_u24()?;
            Ok(match id {
                13 => (id, vec![r.read_vbr_u24()?, r.read_llist(|r| r.read_vbr_u24())?.len() as u32]),
                16 => (id, vec![r.read_vbr_u24()?]),
                _ => (id, vec![]),
            })
        })
        .unwrap();
    assert_eq!(types, [(13, vec![7, 0]), (16, vec![13]), (16, vec![7])]);
    assert!(r.is_at_end());

    // Module globals info: zlist(globalvar), zlist(funcfield), llist(string), string, ...
    let mut r = blocks[1].reader();
    let globals = r
        .read_zlist(|r| {
            let word = r.read_vbr_u32()?;
            let init = if word & 2 != 0 { Some(r.read_vbr_u32()?) } else { None };
            Ok((word >> 5, (word >> 2) & 7, init))
        })
        .unwrap();
    assert_eq!(globals, [(15, 0, Some(0))]);
    let functions = r.read_zlist(|r| r.read_vbr_u32().map(|w| w >> 5)).unwrap();
    assert_eq!(functions, [14]);
    let libs = r.read_llist(|r| r.read_string()).unwrap();
    assert_eq!(libs, [b"c"]);
    assert_eq!(r.read_string().unwrap(), b"i686-pc-linux-gnu");
    assert_eq!(r.read_llist(|r| r.read_string()).unwrap().len(), 0);
    assert_eq!(r.read_string().unwrap(), b"");
    assert!(r.is_at_end());

    // Constant pool: a plane of one int: 42.
    let mut r = blocks[2].reader();
    assert_eq!((r.read_vbr_u32().unwrap(), r.read_vbr_u24().unwrap(), r.read_vbr_u32().unwrap()), (1, 7, 0));
    assert_eq!(r.read_vbr_i64().unwrap(), 42);

    // Instruction list: format 2 and format 1 (fixed 32-bit words), format 0 (VBRs).
    let mut r = blocks[4].reader();
    let add = r.read_u32().unwrap();
    assert_eq!((add & 3, (add >> 2) & 63, (add >> 8) & 255), (2, 7, 7));
    let ret = r.read_u32().unwrap();
    assert_eq!((ret & 3, (ret >> 2) & 63, (ret >> 8) & 0xFFF, ret >> 20), (1, 1, 7, 1));
    let long = r.read_vbr_u32().unwrap();
    assert_eq!((long & 3, long >> 2), (0, 1));
    assert_eq!(r.read_vbr_u24().unwrap(), 7);
    let operands = r.read_llist(|r| r.read_vbr_u32()).unwrap();
    assert_eq!(operands, [1]);
    assert!(r.is_at_end());

    // Function symbol table: llist(type_entry), then planes to the end of the block.
    let mut r = blocks[5].reader();
    assert_eq!(r.read_llist(|r| Ok((r.read_vbr_u24()?, r.read_string()?))).unwrap(), []);
    let mut planes = Vec::new();
    while !r.is_at_end() {
        let count = r.read_vbr_u32().unwrap();
        let ty = r.read_vbr_u24().unwrap();
        let mut names = Vec::new();
        for _ in 0..count {
            names.push((r.read_vbr_u24().unwrap(), r.read_string().unwrap()));
        }
        planes.push((ty, names));
    }
    assert_eq!(planes, [(12, vec![(0, &b"entry"[..])])]);

    // Module symbol table.
    let mut r = blocks[6].reader();
    let type_names = r.read_llist(|r| Ok((r.read_vbr_u24()?, r.read_string()?))).unwrap();
    assert_eq!(type_names, [(13, &b"fnty"[..])]);
}

#[test]
fn vbr_examples_from_the_format_description() {
    // The table's maxima: one more byte for each 7 bits.
    let maxima: [u64; 9] = [
        127,
        16_383,
        2_097_151,
        268_435_455,
        34_359_738_367,
        4_398_046_511_103,
        562_949_953_421_311,
        72_057_594_037_927_935,
        9_223_372_036_854_775_807,
    ];
    for (i, &max) in maxima.iter().enumerate() {
        let encoded = vbr(max);
        assert_eq!(encoded.len(), i + 1);
        assert_eq!(ByteReader::new(&encoded).read_vbr_u64().unwrap(), max);
        let next = vbr(max + 1);
        assert_eq!(next.len(), i + 2);
        assert_eq!(ByteReader::new(&next).read_vbr_u64().unwrap(), max + 1);
    }
    // "the tenth byte could only encode bit 63"
    let max = vbr(u64::MAX);
    assert_eq!(max.len(), 10);
    assert_eq!(*max.last().unwrap(), 1);
    assert_eq!(ByteReader::new(&max).read_vbr_u64().unwrap(), u64::MAX);
    let mut over = max.clone();
    *over.last_mut().unwrap() = 2;
    assert_eq!(
        ByteReader::new(&over).read_vbr_u64().unwrap_err(),
        LegacyError::VbrOverflow { offset: 0, what: "uint64_vbr", bits: 64 }
    );
    let mut eleven = max.clone();
    *eleven.last_mut().unwrap() = 0x81;
    eleven.push(0);
    assert!(matches!(ByteReader::new(&eleven).read_vbr_u64(), Err(LegacyError::VbrOverflow { .. })));

    // uint32_vbr: one to five bytes.
    for v in [0u32, 1, 127, 128, 300, 16_383, 16_384, 268_435_455, 268_435_456, u32::MAX] {
        let encoded = vbr(v.into());
        let mut r = ByteReader::new(&encoded);
        assert_eq!(r.read_vbr_u32().unwrap(), v);
        assert!(r.is_at_end());
    }
    assert_eq!(vbr(u32::MAX.into()), [0xFF, 0xFF, 0xFF, 0xFF, 0x0F]);
    assert!(matches!(
        ByteReader::new(&vbr(1 << 32)).read_vbr_u32(),
        Err(LegacyError::VbrOverflow { offset: 0, bits: 32, .. })
    ));
    // Six bytes are too many even for a small value.
    assert!(ByteReader::new(&[0x80, 0x80, 0x80, 0x80, 0x80, 0x00]).read_vbr_u32().is_err());
    // Non-minimal but in range: accepted.
    assert_eq!(ByteReader::new(&[0x81, 0x80, 0x00]).read_vbr_u32().unwrap(), 1);

    // uint24_vbr: one to four bytes.
    assert_eq!(ByteReader::new(&vbr(0xFF_FFFF)).read_vbr_u24().unwrap(), 0xFF_FFFF);
    assert!(ByteReader::new(&vbr(0x100_0000)).read_vbr_u24().is_err());

    // Signed: "-3 is encoded as ((3 << 1) | 1) and 3 is encoded as (3 << 1) | 0".
    assert_eq!(svbr(-3), [7]);
    assert_eq!(svbr(3), [6]);
    assert_eq!(ByteReader::new(&[7]).read_vbr_i64().unwrap(), -3);
    assert_eq!(ByteReader::new(&[6]).read_vbr_i64().unwrap(), 3);
    for v in [0, 1, -1, 63, -64, 64, i64::MAX, i64::MIN + 1] {
        assert_eq!(ByteReader::new(&svbr(v)).read_vbr_i64().unwrap(), v);
    }
    // "Minus zero" is i64::MIN, as in LLVM's reader.
    assert_eq!(ByteReader::new(&[1]).read_vbr_i64().unwrap(), i64::MIN);
    assert_eq!(legacy::decode_signed_vbr(u64::MAX), -(i64::MAX));
}

#[test]
fn fixed_width_and_list_primitives() {
    let mut bytes = vec![0x78, 0x56, 0x34, 0x12];
    bytes.extend_from_slice(&1.5f32.to_le_bytes());
    bytes.extend_from_slice(&(-2.25f64).to_le_bytes());
    bytes.push(b'x');
    let mut r = ByteReader::with_base(&bytes, 100);
    assert_eq!(r.offset(), 100);
    assert_eq!(r.read_u32().unwrap(), 0x1234_5678);
    assert_eq!(r.read_f32().unwrap(), 1.5);
    assert_eq!(r.read_f64().unwrap(), -2.25);
    assert_eq!((r.position(), r.offset(), r.remaining()), (16, 116, 1));
    assert_eq!(r.rest(), b"x");
    assert_eq!(r.read_u8().unwrap(), b'x');
    assert_eq!(r.read_u8().unwrap_err(), LegacyError::Truncated { offset: 117, what: "char", needed: 1, available: 0 });

    // llist(uint32_vbr) and zlist(uint32_vbr).
    let bytes = cat(&[&vbr(3), &vbr(1), &vbr(300), &vbr(2), &vbr(9), &vbr(70_000), &vbr(0), &[0xEE]]);
    let mut r = ByteReader::new(&bytes);
    assert_eq!(r.read_llist(|r| r.read_vbr_u32()).unwrap(), [1, 300, 2]);
    assert_eq!(r.read_zlist(|r| r.read_vbr_u32()).unwrap(), [9, 70_000]);
    assert_eq!(r.rest(), [0xEE]);

    // A count larger than the bytes left, an item that reads nothing, an unterminated zlist.
    let mut r = ByteReader::new(&[0x7F, 1, 2]);
    assert_eq!(
        r.read_llist(|r| r.read_u8()).unwrap_err(),
        LegacyError::ImplausibleCount { offset: 0, what: "llist length", count: 127, remaining: 2 }
    );
    let mut r = ByteReader::new(&[2, 1, 2]);
    assert_eq!(r.read_llist(|_| Ok(())).unwrap_err(), LegacyError::EmptyListItem { offset: 1 });
    let mut r = ByteReader::new(&[5, 5]);
    assert_eq!(r.read_zlist(|_| Ok(())).unwrap_err(), LegacyError::EmptyListItem { offset: 0 });
    let mut r = ByteReader::new(&[5, 5]);
    assert!(matches!(r.read_zlist(|r| r.read_vbr_u32()), Err(LegacyError::Truncated { offset: 2, .. })));

    // A string longer than the data: an error, and the position does not move.
    let mut r = ByteReader::with_base(&[5, b'a', b'b'], 10);
    assert_eq!(
        r.read_string().unwrap_err(),
        LegacyError::Truncated { offset: 11, what: "string", needed: 5, available: 2 }
    );
    assert_eq!(r.offset(), 10);
    assert_eq!(r.read_bytes(3).unwrap(), [5, b'a', b'b']);
    assert!(r.skip(1).is_err());
}

// ---------------------------------------------------------------------------------------
// Errors.

fn all_samples() -> Vec<Vec<u8>> {
    let mut null = b"llvc0".to_vec();
    null.extend_from_slice(&v5_padded()[4..]);
    vec![
        v5_padded(),
        v5_unpadded(),
        file(b"llvm", HeaderForm::Short, content(3, 0, &SHORT, true)),
        file(b"llvm", HeaderForm::Long, content(1, 0, &LONG, true)),
        null,
    ]
}

#[test]
fn truncation_at_every_offset_is_a_clean_error() {
    for bytes in all_samples() {
        Bytecode::parse(&bytes).unwrap();
        for len in 0..bytes.len() {
            let cut = &bytes[..len];
            let err = Bytecode::parse(cut).unwrap_err();
            assert!(err.byte_offset() <= len, "cut at {len}: {err}");
            // Only the module header can notice: its size no longer fits.
            if len >= 13 {
                assert!(matches!(err, LegacyError::ModuleTooLong { .. }), "cut at {len}: {err}");
            }
            assert!(!err.to_string().is_empty());
        }
    }
}

/// Issue 29: a cut file gives back what comes before the cut. Every sample, cut at every
/// byte (its module block then declares more than follows): no panic; a longer prefix
/// never gives fewer types, globals, functions, constants, function blocks or decoded
/// bodies than a shorter one; the whole file gives what `parse` gives; an error falls
/// inside the prefix (its byte offset at most the prefix length).
#[test]
fn a_cut_file_gives_back_everything_before_the_cut() {
    use legacy::Module;
    fn counts(m: &Module<'_>) -> [usize; 6] {
        let bodies = (0..m.functions.len()).filter(|&i| matches!(m.body(i), Ok(Some(_)))).count();
        [
            m.types.len() as usize,
            m.globals.len(),
            m.functions.len(),
            m.constants.len(),
            m.functions.iter().filter(|f| f.block.is_some()).count(),
            bodies,
        ]
    }
    let mut decoded = 0;
    for (sample, bytes) in all_samples().iter().enumerate() {
        // The samples of versions 1 and 3 are block layouts only (their contents are a
        // version 5 module's).
        let Ok(whole) = Module::parse(bytes) else { continue };
        decoded += 1;
        let all = counts(&whole);
        assert!(all[4] > 0 && all[5] > 0, "sample {sample}: {all:?}");
        let mut last = [0; 6];
        for cut in 0..=bytes.len() {
            let (module, error) = Module::parse_partial(&bytes[..cut]);
            if let Some(e) = &error {
                assert!(e.byte_offset() <= cut, "sample {sample} cut at {cut}: {e}");
                let _ = e.to_string();
            }
            assert!(module.is_some() || error.is_some(), "sample {sample} cut at {cut}");
            let now = module.as_ref().map(counts).unwrap_or_default();
            assert!(
                now.iter().zip(&last).all(|(n, l)| n >= l),
                "sample {sample}: {now:?} cut at {cut}, {last:?} one byte earlier"
            );
            if let Some(m) = &module {
                let _ = m.display().to_string();
            }
            last = now;
            if cut == bytes.len() {
                assert!(error.is_none(), "sample {sample}: {error:?}");
                assert_eq!(now, all, "sample {sample}");
            } else {
                assert!(error.is_some(), "sample {sample} cut at {cut}: no error");
            }
        }
        eprintln!(
            "sample {sample}: {} prefixes, up to {all:?} (types, globals, functions, constants, function blocks, bodies), monotone",
            bytes.len() + 1
        );
    }
    assert!(decoded >= 3, "{decoded}");
}

#[test]
fn truncation_inside_the_module_is_a_clean_error() {
    // Cut the module at every length and fix its size, so the inner blocks are cut.
    for bytes in all_samples() {
        let at = legacy::detect(&bytes).unwrap().byte_len();
        let mut ok = 0;
        for len in at + 8..bytes.len() {
            let mut cut = bytes[..len].to_vec();
            let size = (len - at - 8) as u32;
            cut[at + 4..at + 8].copy_from_slice(&size.to_le_bytes());
            match Bytecode::parse(&cut) {
                Ok(module) => {
                    ok += 1;
                    check_offsets(&module);
                    assert!(module.walk().count() <= SHAPE.len());
                }
                Err(err) => assert!(err.byte_offset() <= len, "cut at {len}: {err}"),
            }
        }
        assert!(ok > 0);
    }
}

#[test]
fn bad_sizes_are_clean_errors() {
    let bytes = v5_padded();
    let module = Bytecode::parse(&bytes).unwrap();
    let blocks: Vec<Block<'_>> = module.walk().collect();

    // Module size one past the end.
    let mut bad = bytes.clone();
    let size = (bytes.len() - 12 + 1) as u32;
    bad[8..12].copy_from_slice(&size.to_le_bytes());
    assert_eq!(
        Bytecode::parse(&bad).unwrap_err(),
        LegacyError::ModuleTooLong { offset: 4, size, available: bytes.len() - 12 }
    );
    // Largest module size.
    bad[8..12].copy_from_slice(&u32::MAX.to_le_bytes());
    assert!(matches!(Bytecode::parse(&bad).unwrap_err(), LegacyError::ModuleTooLong { offset: 4, .. }));

    // Each block in turn: size one past its container, and the largest 27-bit size.
    for (i, block) in blocks.iter().enumerate() {
        let container_end = if block.depth == 1 { bytes.len() } else { blocks[3].end() };
        let available = container_end - block.payload_offset();
        for size in [available as u32 + 1, (1 << 27) - 1] {
            let mut bad = bytes.clone();
            bad[block.offset..block.offset + 4].copy_from_slice(&(size << 5 | block.id).to_le_bytes());
            assert_eq!(
                Bytecode::parse(&bad).unwrap_err(),
                LegacyError::BlockTooLong { offset: block.offset, id: block.id, size, available },
                "block {i}"
            );
        }
        // Type 0.
        let mut bad = bytes.clone();
        bad[block.offset] &= !0x1F;
        assert_eq!(Bytecode::parse(&bad).unwrap_err(), LegacyError::ReservedBlockType { offset: block.offset });
    }

    // A block size too small: the rest of the payload is read as block headers.
    let mut bad = bytes.clone();
    let types = blocks[0];
    bad[types.offset..types.offset + 4].copy_from_slice(&(1u32 << 5 | 6).to_le_bytes());
    assert!(Bytecode::parse(&bad).is_err());

    // The module block's type.
    let mut bad = bytes.clone();
    bad[4] = 2;
    assert_eq!(Bytecode::parse(&bad).unwrap_err(), LegacyError::NotModuleBlock { offset: 4, id: 2 });

    // Long headers: a 32-bit size far past the end.
    let long = file(b"llvm", HeaderForm::Long, content(1, 0, &LONG, true));
    let first = Bytecode::parse(&long).unwrap().blocks().next().unwrap();
    let mut bad = long.clone();
    bad[first.offset + 4..first.offset + 8].copy_from_slice(&u32::MAX.to_le_bytes());
    assert!(matches!(Bytecode::parse(&bad).unwrap_err(), LegacyError::BlockTooLong { size: u32::MAX, id: 0x15, .. }));

    // A function block whose linkage is cut off (empty payload).
    let empty_fn = file(b"llvm", HeaderForm::Short, vec![raw(vbr(5 << 4)), Item::Block(2, vec![])]);
    assert!(matches!(
        Bytecode::parse(&empty_fn).unwrap_err(),
        LegacyError::Truncated { what: "uint32_vbr", offset: 17, .. }
    ));
    // A module with nothing after its header: no format information.
    assert!(matches!(
        Bytecode::parse(&file(b"llvm", HeaderForm::Short, vec![])).unwrap_err(),
        LegacyError::Truncated { offset: 12, .. }
    ));
    // A format information VBR that overflows 32 bits.
    let overflow = file(b"llvm", HeaderForm::Short, vec![raw([0xFF, 0xFF, 0xFF, 0xFF, 0x7F])]);
    assert_eq!(
        Bytecode::parse(&overflow).unwrap_err(),
        LegacyError::VbrOverflow { offset: 12, what: "uint32_vbr", bits: 32 }
    );
}

#[test]
fn every_byte_mutation_is_handled() {
    for bytes in all_samples() {
        for i in 0..bytes.len() {
            for value in [0x00, 0x01, 0x1F, 0x20, 0x7F, 0x80, 0xFF, bytes[i] ^ 0x40] {
                let mut bad = bytes.clone();
                bad[i] = value;
                if let Ok(module) = Bytecode::parse(&bad) {
                    check_offsets(&module);
                    for block in module.walk() {
                        let _ = block.name();
                        let _ = block.linkage();
                        let mut r = block.reader();
                        while r.read_vbr_u64().is_ok() {}
                    }
                }
            }
        }
    }
}

// ---------------------------------------------------------------------------------------
// Compression.

#[cfg(feature = "legacy-compression")]
mod compression {
    use std::io::Write;

    use super::*;

    fn compressed(digit: u8, data: &[u8]) -> Vec<u8> {
        let mut out = b"llvc".to_vec();
        out.push(digit);
        out.extend_from_slice(data);
        out
    }

    fn zlib(data: &[u8]) -> Vec<u8> {
        let mut e = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::best());
        e.write_all(data).unwrap();
        e.finish().unwrap()
    }

    fn gzip(data: &[u8]) -> Vec<u8> {
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        e.write_all(data).unwrap();
        e.finish().unwrap()
    }

    fn bzip2(data: &[u8]) -> Vec<u8> {
        let mut e = bzip2::write::BzEncoder::new(Vec::new(), bzip2::Compression::best());
        e.write_all(data).unwrap();
        e.finish().unwrap()
    }

    fn walk(bytes: &[u8]) -> Vec<(usize, BlockKind, usize, Vec<u8>)> {
        Bytecode::parse(bytes).unwrap().walk().map(|b| (b.offset, b.kind, b.size(), b.payload.to_vec())).collect()
    }

    #[test]
    fn round_trips() {
        for plain in [v5_padded(), v5_unpadded()] {
            let module_block = &plain[4..];
            for (digit, packed) in [(b'1', zlib(module_block)), (b'1', gzip(module_block)), (b'2', bzip2(module_block))]
            {
                let file = compressed(digit, &packed);
                assert!(matches!(legacy::detect(&file), Some(Signature::Compressed(_))));
                assert!(matches!(Bytecode::parse(&file), Err(LegacyError::Compressed { offset: 4, .. })));
                let unpacked = Bytecode::decompress(&file).unwrap();
                assert_eq!(unpacked, plain);
                assert_eq!(walk(&unpacked), walk(&plain));
                // The contents too: the same module, printed alike.
                let text = legacy::Module::parse(&unpacked).unwrap().display().to_string();
                assert_eq!(text, legacy::Module::parse(&plain).unwrap().display().to_string());
            }
            // Null compression and uncompressed files; `llvc0` decodes in place.
            let null = compressed(b'0', module_block);
            assert_eq!(Bytecode::decompress(&null).unwrap(), plain);
            let in_place = legacy::Module::parse(&null).unwrap();
            assert_eq!(in_place.display().to_string(), legacy::Module::parse(&plain).unwrap().display().to_string());
            assert_eq!(in_place.body(0).unwrap().unwrap().instructions.len(), 3);
            assert_eq!(Bytecode::decompress(&plain).unwrap(), plain);
        }
    }

    #[test]
    fn damaged_data_is_a_clean_error() {
        let plain = v5_padded();
        for (digit, compression) in [(b'1', Compression::Gzip), (b'2', Compression::Bzip2)] {
            for data in [&b""[..], b"garbage garbage garbage", &[0x1F, 0x8B, 8, 0, 0]] {
                let err = Bytecode::decompress(&compressed(digit, data)).unwrap_err();
                assert!(
                    matches!(err, LegacyError::Decompression { offset: 5, compression: c, .. } if c == compression),
                    "{err}"
                );
            }
        }
        // Truncated compressed data: an error at every cut (or, if a cut decodes, a module
        // that fails to parse or parses cleanly).
        for packed in [compressed(b'1', &zlib(&plain[4..])), compressed(b'2', &bzip2(&plain[4..]))] {
            for len in 0..packed.len() {
                if let Ok(unpacked) = Bytecode::decompress(&packed[..len]) {
                    let _ = Bytecode::parse(&unpacked);
                }
            }
        }
        assert_eq!(Bytecode::decompress(b"BC\xC0\xDE").unwrap_err(), LegacyError::NotLegacy { offset: 0 });
        assert!(matches!(Bytecode::decompress(b"llvc7").unwrap_err(), LegacyError::UnknownCompression { .. }));
    }

    #[test]
    fn decompression_is_bounded() {
        let zeros = vec![0u8; 1 << 20];
        for (digit, packed) in [(b'1', zlib(&zeros)), (b'1', gzip(&zeros)), (b'2', bzip2(&zeros))] {
            let file = compressed(digit, &packed);
            let limit = legacy::decompression_limit(file.len());
            assert!(limit < zeros.len());
            assert_eq!(
                Bytecode::decompress(&file).unwrap_err(),
                LegacyError::DecompressedTooLarge { offset: 5, limit }
            );
        }
        assert_eq!(legacy::decompression_limit(10), 640);
        assert_eq!(legacy::decompression_limit(usize::MAX), legacy::MAX_DECOMPRESSED_BYTES);
        assert_eq!(legacy::decompression_limit(1 << 30), 1 << 30);
    }
}

/// The module of these tests, padded or not, decodes (`legacy::Module`): the walk and
/// the decoder agree on where everything is.
#[test]
fn the_walked_module_decodes() {
    for bytes in [v5_padded(), v5_unpadded()] {
        let module = legacy::Module::parse(&bytes).unwrap();
        assert_eq!(module.globals[0].name, Some(&b"answer"[..]));
        assert_eq!(module.functions[0].name, Some(&b"main"[..]));
        assert_eq!(module.types.name(13), Some(&b"fnty"[..]));
        assert_eq!(module.dependent_libraries, [&b"c"[..]]);
        let body = module.body(0).unwrap().unwrap();
        let opcodes: Vec<legacy::Opcode> = body.instructions.iter().map(|i| i.opcode).collect();
        assert_eq!(opcodes, [legacy::Opcode::Add, legacy::Opcode::Ret, legacy::Opcode::Ret]);
        assert_eq!(body.blocks.len(), 2);
        assert_eq!(body.name_of(legacy::Value::Block(0)), Some(&b"entry"[..]));
        let ret = body.operands(&body.instructions[1])[0];
        assert!(
            matches!(ret.value, legacy::Value::Constant(c) if module.constants[c as usize].kind == legacy::ConstantKind::Int(42))
        );
    }
}
