//! A small LLVM 1.x bytecode writer for the tests: the encoding primitives, blocks with
//! either header form and 32-bit padding, and a version-aware module builder whose every
//! encoding follows the format description (seed 004) and its "Version Differences".
//! No tool writes these files any more, so the tests write their own.
#![allow(dead_code)]

use llvm_bitstream_reader::legacy::HeaderForm;

/// A piece of a file.
pub enum Item {
    /// Bytes as they are.
    Raw(Vec<u8>),
    /// A block: type and contents; the header form is the writer's.
    Block(u32, Vec<Item>),
    /// Zero bytes up to the next multiple of 4 from the module block's start.
    Pad,
}

pub fn raw(bytes: impl Into<Vec<u8>>) -> Item {
    Item::Raw(bytes.into())
}

/// A `uint64_vbr` (and so `uint32_vbr`, `uint24_vbr`).
pub fn vbr(mut v: u64) -> Vec<u8> {
    let mut out = Vec::new();
    loop {
        let byte = (v & 0x7F) as u8;
        v >>= 7;
        if v == 0 {
            out.push(byte);
            return out;
        }
        out.push(byte | 0x80);
    }
}

/// An `int64_vbr`.
pub fn svbr(v: i64) -> Vec<u8> {
    if v < 0 { vbr((v.unsigned_abs() << 1) | 1) } else { vbr((v as u64) << 1) }
}

/// A `string`.
pub fn string(s: &str) -> Vec<u8> {
    let mut out = vbr(s.len() as u64);
    out.extend_from_slice(s.as_bytes());
    out
}

pub fn cat(parts: &[&[u8]]) -> Vec<u8> {
    parts.concat()
}

pub struct Writer {
    pub out: Vec<u8>,
    pub origin: usize,
    pub form: HeaderForm,
}

impl Writer {
    pub fn emit(&mut self, items: &[Item]) {
        for item in items {
            match item {
                Item::Raw(bytes) => self.out.extend_from_slice(bytes),
                Item::Pad => {
                    while (self.out.len() - self.origin) % 4 != 0 {
                        self.out.push(0);
                    }
                }
                Item::Block(id, content) => {
                    let at = self.out.len();
                    let header = self.form.byte_len();
                    self.out.resize(at + header, 0);
                    self.emit(content);
                    let size = (self.out.len() - at - header) as u32;
                    match self.form {
                        HeaderForm::Short => {
                            assert!(*id < 32 && size < 1 << 27);
                            self.out[at..at + 4].copy_from_slice(&(size << 5 | id).to_le_bytes());
                        }
                        HeaderForm::Long => {
                            self.out[at..at + 4].copy_from_slice(&id.to_le_bytes());
                            self.out[at + 4..at + 8].copy_from_slice(&size.to_le_bytes());
                        }
                    }
                }
            }
        }
    }
}

/// A whole file: signature, module block (long header), `content` (starting with the
/// format information), blocks inside written with `form`.
pub fn file(signature: &[u8], form: HeaderForm, content: Vec<Item>) -> Vec<u8> {
    let mut w = Writer { out: signature.to_vec(), origin: signature.len(), form };
    let at = w.out.len();
    w.out.extend_from_slice(&1u32.to_le_bytes());
    w.out.extend_from_slice(&0u32.to_le_bytes());
    w.emit(&content);
    let size = (w.out.len() - at - 8) as u32;
    w.out[at + 4..at + 8].copy_from_slice(&size.to_le_bytes());
    w.out
}

// ---------------------------------------------------------------------------------------
// Version-aware encodings.

/// Marks an opcode given to [`V::opcode`] (and so to the instruction and constant
/// expression writers) in the version's own numbering: written as it is.
pub const AS_WRITTEN: u64 = 1 << 32;

/// Version 6's opcodes that LLVM 1.4 has no number for (`include/llvm/Instruction.def` of
/// 2006-11-02 to 2006-11-08), marked [`AS_WRITTEN`].
pub mod v6 {
    use super::AS_WRITTEN;
    pub const UDIV: u64 = AS_WRITTEN | 10;
    pub const SDIV: u64 = AS_WRITTEN | 11;
    pub const FDIV: u64 = AS_WRITTEN | 12;
    pub const UREM: u64 = AS_WRITTEN | 13;
    pub const SREM: u64 = AS_WRITTEN | 14;
    pub const FREM: u64 = AS_WRITTEN | 15;
}

/// A bytecode version, and how it writes things.
#[derive(Clone, Copy, Debug)]
pub struct V(pub u32);

/// Block ids of one header form.
pub struct Ids {
    pub function: u32,
    pub constant_pool: u32,
    pub symbol_table: u32,
    pub globals: u32,
    pub types: u32,
    pub instructions: u32,
    pub compaction: u32,
    pub basic_block: u32,
}

impl V {
    pub fn form(self) -> HeaderForm {
        if self.0 <= 2 { HeaderForm::Long } else { HeaderForm::Short }
    }

    pub fn aligned(self) -> bool {
        self.0 <= 3
    }

    /// Padding to 32 bits in versions 0 to 3, nothing after.
    pub fn pad(self) -> Item {
        if self.aligned() { Item::Pad } else { raw([]) }
    }

    /// A type id as written: versions 0 and 1 have the "type type" at 12, so ids from 12
    /// (label) on are one higher.
    pub fn type_id(self, id: u64) -> u64 {
        if self.0 <= 1 && id >= 12 { id + 1 } else { id }
    }

    /// A type slot as written (a VBR).
    pub fn ty(self, id: u64) -> Vec<u8> {
        vbr(self.type_id(id))
    }

    /// An opcode as written, from LLVM 1.4's number (or one marked [`AS_WRITTEN`], kept):
    /// versions 0 to 4 have no `unreachable` (6), so opcodes 7 to 61 are one lower;
    /// version 6 (`Instruction.def` of 2006-11-02) numbers `and` to `shr` four higher and
    /// `select` to `shufflevector` two higher, and has no `div`, `rem`, `vanext` or old
    /// `vaarg` (its split `div` and `rem` are in [`v6`]).
    pub fn opcode(self, op: u64) -> u64 {
        if op & AS_WRITTEN != 0 {
            return op & !AS_WRITTEN;
        }
        match self.0 {
            0..=4 if (7..62).contains(&op) => op - 1,
            6 => match op {
                10 | 11 | 32 | 33 => panic!("version 6 has no opcode {op} of LLVM 1.4"),
                12..=31 => op + 4,
                34..=40 => op + 2,
                _ => op,
            },
            _ => op,
        }
    }

    pub fn ids(self) -> Ids {
        if self.form() == HeaderForm::Long {
            Ids {
                function: 0x11,
                constant_pool: 0x12,
                symbol_table: 0x13,
                globals: 0x14,
                types: 0x15,
                instructions: 0x32,
                compaction: 0x33,
                basic_block: 0x31,
            }
        } else {
            Ids {
                function: 2,
                constant_pool: 3,
                symbol_table: 4,
                globals: 5,
                types: 6,
                instructions: 7,
                compaction: 8,
                basic_block: 0x31,
            }
        }
    }

    // Types (type pool entries).

    pub fn t_prim(self, id: u64) -> Vec<u8> {
        self.ty(id)
    }

    pub fn t_fn(self, ret: u64, params: &[u64], vararg: bool) -> Vec<u8> {
        let mut out = cat(&[&self.ty(13), &self.ty(ret), &vbr(params.len() as u64 + u64::from(vararg))]);
        for p in params {
            out.extend(self.ty(*p));
        }
        if vararg {
            out.extend(self.ty(0));
        }
        out
    }

    pub fn t_struct(self, fields: &[u64]) -> Vec<u8> {
        let mut out = self.ty(14);
        for f in fields {
            out.extend(self.ty(*f));
        }
        out.extend(self.ty(0));
        out
    }

    pub fn t_array(self, elem: u64, n: u64) -> Vec<u8> {
        cat(&[&self.ty(15), &self.ty(elem), &vbr(n)])
    }

    pub fn t_ptr(self, elem: u64) -> Vec<u8> {
        cat(&[&self.ty(16), &self.ty(elem)])
    }

    pub fn t_opaque(self) -> Vec<u8> {
        self.ty(17)
    }

    pub fn t_packed(self, elem: u64, n: u64) -> Vec<u8> {
        cat(&[&self.ty(18), &self.ty(elem), &vbr(n)])
    }

    // Globals (Module Global Info entries).

    /// A global variable without the extension word.
    pub fn global(self, ptr_ty: u64, constant: bool, linkage: u64, init: Option<u64>) -> Vec<u8> {
        assert!(!(linkage == 3 && init.is_none()), "that combination means an extension word");
        let word = self.type_id(ptr_ty) << 5 | linkage << 2 | u64::from(init.is_some()) << 1 | u64::from(constant);
        let mut out = vbr(word);
        if let Some(slot) = init {
            out.extend(vbr(slot));
        }
        out
    }

    /// A global variable with the extension word (linkage 3 and no initializer in the
    /// first word): real linkage and initializer flag, log2 alignment, section id.
    pub fn global_ext(
        self,
        ptr_ty: u64,
        constant: bool,
        linkage: u64,
        init: Option<u64>,
        align_log2: u64,
        section: Option<u64>,
    ) -> Vec<u8> {
        let word = self.type_id(ptr_ty) << 5 | 3 << 2 | u64::from(constant);
        let ext = u64::from(init.is_some()) | linkage << 1 | align_log2 << 4 | u64::from(section.is_some()) << 9;
        let mut out = cat(&[&vbr(word), &vbr(ext)]);
        if let Some(id) = section {
            out.extend(vbr(id));
        }
        if let Some(slot) = init {
            out.extend(vbr(slot));
        }
        out
    }

    /// A function: version 5's word (calling convention + 1 in bits 0-3, external in bit
    /// 4, type slot, extension word in bit 31), or before version 5 the type slot alone.
    pub fn function(self, ptr_ty: u64, cc: u64, external: bool, align_log2: u64, section: Option<u64>) -> Vec<u8> {
        if self.0 <= 4 {
            return vbr(self.type_id(ptr_ty));
        }
        let cc1 = cc + 1;
        let ext = align_log2 != 0 || cc1 >= 16 || section.is_some();
        let word = u64::from(ext) << 31 | self.type_id(ptr_ty) << 5 | u64::from(external) << 4 | (cc1 & 15);
        let mut out = vbr(word);
        if ext {
            out.extend(vbr(align_log2 | (cc1 >> 4) << 5 | u64::from(section.is_some()) << 10));
            if let Some(id) = section {
                out.extend(vbr(id));
            }
        }
        out
    }

    // Instructions.

    /// Format 0: opcode << 2, type, operand count, operands (VBRs), padded to 32 bits in
    /// versions 0 to 3.
    pub fn fmt0(self, op: u64, ty: u64, ops: &[u64]) -> Vec<Item> {
        let mut out = cat(&[&vbr(self.opcode(op) << 2), &self.ty(ty), &vbr(ops.len() as u64)]);
        for o in ops {
            out.extend(vbr(*o));
        }
        vec![raw(out), self.pad()]
    }

    fn packed(self, format: u64, op: u64, ty: u64, ty_shift_bits: u32, fields: &[(u64, u32, u32)]) -> Vec<Item> {
        let ty = self.type_id(ty);
        assert!(ty < 1 << ty_shift_bits, "type {ty} does not fit format {format}");
        let mut word = format | self.opcode(op) << 2 | ty << 8;
        for &(v, shift, bits) in fields {
            assert!(v < 1 << bits, "operand {v} does not fit format {format}");
            word |= v << shift;
        }
        vec![raw((word as u32).to_le_bytes())]
    }

    /// Format 1: one operand (or none: 4095) in a fixed 32-bit word.
    pub fn fmt1(self, op: u64, ty: u64, operand: Option<u64>) -> Vec<Item> {
        self.packed(1, op, ty, 12, &[(operand.unwrap_or(4095), 20, 12)])
    }

    /// Format 2: two operands of 8 bits.
    pub fn fmt2(self, op: u64, ty: u64, a: u64, b: u64) -> Vec<Item> {
        self.packed(2, op, ty, 8, &[(a, 16, 8), (b, 24, 8)])
    }

    /// Format 3: three operands of 6 bits.
    pub fn fmt3(self, op: u64, ty: u64, a: u64, b: u64, c: u64) -> Vec<Item> {
        self.packed(3, op, ty, 6, &[(a, 14, 6), (b, 20, 6), (c, 26, 6)])
    }

    /// The smallest format, as LLVM's writer chose.
    pub fn inst(self, op: u64, ty: u64, ops: &[u64]) -> Vec<Item> {
        let t = self.type_id(ty);
        match ops {
            [] if t < 4095 => self.fmt1(op, ty, None),
            [a] if t < 4095 && *a < 4095 => self.fmt1(op, ty, Some(*a)),
            [a, b] if t < 256 && *a < 256 && *b < 256 => self.fmt2(op, ty, *a, *b),
            [a, b, c] if t < 64 && *a < 64 && *b < 64 && *c < 64 => self.fmt3(op, ty, *a, *b, *c),
            _ => self.fmt0(op, ty, ops),
        }
    }

    // Constants.

    /// A constant plane's header: count and type.
    pub fn plane(self, count: u64, ty: u64) -> Vec<u8> {
        cat(&[&vbr(count), &self.ty(ty)])
    }

    /// A constant expression: operand count (+1 from version 5, where 1 is `undef`),
    /// opcode, (value slot, type) pairs.
    pub fn c_expr(self, op: u64, args: &[(u64, u64)]) -> Vec<u8> {
        let n = args.len() as u64 + u64::from(self.0 >= 5);
        let mut out = cat(&[&vbr(n), &vbr(self.opcode(op))]);
        for (slot, ty) in args {
            out.extend(vbr(*slot));
            out.extend(self.ty(*ty));
        }
        out
    }

    /// A symbol table: type names (a list from version 2, the "type type" plane before),
    /// then planes of (slot, name).
    pub fn symtab(self, types: &[(u64, &str)], planes: &[(u64, &[(u64, &str)])]) -> Vec<u8> {
        let mut out = Vec::new();
        if self.0 >= 2 {
            out.extend(vbr(types.len() as u64));
            for (ty, name) in types {
                out.extend(vbr(*ty));
                out.extend(string(name));
            }
        } else if !types.is_empty() {
            out.extend(vbr(types.len() as u64));
            out.extend(vbr(12));
            for (ty, name) in types {
                out.extend(self.ty(*ty));
                out.extend(string(name));
            }
        }
        for (ty, entries) in planes {
            out.extend(self.plane(entries.len() as u64, *ty));
            for (slot, name) in entries.iter() {
                out.extend(vbr(*slot));
                out.extend(string(name));
            }
        }
        out
    }
}

/// An integer constant of a signed type (no operands, then the value).
pub fn c_int(v: i64) -> Vec<u8> {
    cat(&[&vbr(0), &svbr(v)])
}

/// An integer constant of an unsigned type, or a bool.
pub fn c_uint(v: u64) -> Vec<u8> {
    cat(&[&vbr(0), &vbr(v)])
}

/// An array, structure or packed constant: its elements' value slots.
pub fn c_aggregate(slots: &[u64]) -> Vec<u8> {
    let mut out = vbr(0);
    for s in slots {
        out.extend(vbr(*s));
    }
    out
}

/// A module, built in the order of the format description's General Structure.
pub struct ModuleBuilder {
    pub v: V,
    pub flags: u64,
    pub types: Vec<Vec<u8>>,
    pub globals: Vec<Vec<u8>>,
    pub functions: Vec<Vec<u8>>,
    pub deplibs: Vec<&'static str>,
    pub triple: &'static str,
    pub sections: Vec<&'static str>,
    pub asm: &'static str,
    /// The module constant pool's payload, if any.
    pub constants: Option<Vec<Item>>,
    /// Function Definition blocks' contents after the linkage: (linkage, blocks).
    pub bodies: Vec<(u64, Vec<Item>)>,
    /// The module symbol table's payload, if any.
    pub symtab: Option<Vec<u8>>,
    /// Blocks after everything else.
    pub extra: Vec<Item>,
}

impl ModuleBuilder {
    pub fn new(version: u32) -> Self {
        ModuleBuilder {
            v: V(version),
            flags: 0,
            types: Vec::new(),
            globals: Vec::new(),
            functions: Vec::new(),
            deplibs: Vec::new(),
            triple: "",
            sections: Vec::new(),
            asm: "",
            constants: None,
            bodies: Vec::new(),
            symtab: None,
            extra: Vec::new(),
        }
    }

    /// A function body block's children: each (block id, payload items), padded.
    pub fn body(&mut self, linkage: u64, blocks: Vec<(u32, Vec<Item>)>) {
        let mut items = Vec::new();
        for (id, payload) in blocks {
            items.push(Item::Block(id, payload));
            items.push(self.v.pad());
        }
        self.bodies.push((linkage, items));
    }

    pub fn global_info(&self) -> Vec<Item> {
        let v = self.v;
        let mut items: Vec<Item> = self.globals.iter().map(|g| raw(g.clone())).collect();
        items.push(raw(vbr(0)));
        items.extend(self.functions.iter().map(|f| raw(f.clone())));
        items.push(raw(vbr(0)));
        if v.0 >= 3 {
            let mut tail = vbr(self.deplibs.len() as u64);
            for l in &self.deplibs {
                tail.extend(string(l));
            }
            tail.extend(string(self.triple));
            if v.0 >= 5 {
                tail.extend(vbr(self.sections.len() as u64));
                for s in &self.sections {
                    tail.extend(string(s));
                }
                tail.extend(string(self.asm));
            }
            items.push(raw(tail));
        }
        if v.0 == 0 {
            // Version 0 counts the block's own padding in its size.
            items.push(Item::Pad);
        }
        items
    }

    pub fn content(&self) -> Vec<Item> {
        let v = self.v;
        let ids = v.ids();
        let mut types = vbr(self.types.len() as u64);
        if v.0 <= 1 {
            types.extend(vbr(12)); // the type plane's id, ignored
        }
        for t in &self.types {
            types.extend(t);
        }
        let mut items = vec![raw(vbr((v.0 as u64) << 4 | self.flags)), v.pad()];
        items.push(Item::Block(ids.types, vec![raw(types)]));
        items.push(v.pad());
        items.push(Item::Block(ids.globals, self.global_info()));
        items.push(v.pad());
        if let Some(c) = &self.constants {
            items.push(Item::Block(ids.constant_pool, clone_items(c)));
            items.push(v.pad());
        }
        for (linkage, body) in &self.bodies {
            let mut content = vec![raw(vbr(*linkage)), v.pad()];
            content.extend(clone_items(body));
            items.push(Item::Block(ids.function, content));
            items.push(v.pad());
        }
        if let Some(s) = &self.symtab {
            items.push(Item::Block(ids.symbol_table, vec![raw(s.clone())]));
            items.push(v.pad());
        }
        items.extend(clone_items(&self.extra));
        items
    }

    pub fn build(&self) -> Vec<u8> {
        file(b"llvm", self.v.form(), self.content())
    }
}

pub fn clone_items(items: &[Item]) -> Vec<Item> {
    items
        .iter()
        .map(|i| match i {
            Item::Raw(b) => Item::Raw(b.clone()),
            Item::Block(id, c) => Item::Block(*id, clone_items(c)),
            Item::Pad => Item::Pad,
        })
        .collect()
}

/// Flattens instruction encodings into one list of items.
pub fn insts(parts: Vec<Vec<Item>>) -> Vec<Item> {
    parts.into_iter().flatten().collect()
}
