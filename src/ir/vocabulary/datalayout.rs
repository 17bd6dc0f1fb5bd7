//! The datalayout string (MODULE_CODE_DATALAYOUT), read as LLVM's `DataLayout` reads the
//! parts this crate asks about: pointer sizes and alignments by address space, integer,
//! float and aggregate alignments, the program and alloca address spaces, and the name
//! mangling mode. Read where asked, from the string: a module asks a few questions of it,
//! once each. [`TypeLayout`] computes type sizes and alignments from them.

use crate::ir::module::types::{Type, TypeId, TypeTable};

/// A datalayout string: `-`-separated specifications (`e`, `m:e`, `p270:32:32`,
/// `i64:64`, `P1`, `A5`, …).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct DataLayout<'a> {
    text: &'a str,
}

/// Integer ABI alignments before the string's `i` specifications, (width, alignment) in
/// bits.
const DEFAULT_INTS: [(u64, u64); 5] = [(1, 8), (8, 8), (16, 16), (32, 32), (64, 32)];
/// Float ABI alignments before the string's `f` specifications.
const DEFAULT_FLOATS: [(u64, u64); 4] = [(16, 16), (32, 32), (64, 64), (128, 128)];
/// A pointer's size and ABI alignment in bits, in address space 0 unless the string says.
const DEFAULT_POINTER: (u64, u64) = (64, 64);
/// Integer preferred alignments before the string's `i` specifications (`i64:32:64`).
const DEFAULT_INT_PREFS: [(u64, u64); 5] = [(1, 8), (8, 8), (16, 16), (32, 32), (64, 64)];
/// How deep a type may nest before its size is not computed (a malformed table).
const MAX_CHAIN: usize = 64;

impl<'a> DataLayout<'a> {
    /// The datalayout `text`; an empty one is LLVM's defaults.
    pub(crate) fn new(text: &'a str) -> Self {
        DataLayout { text }
    }

    /// The specifications, in order (the string split at `-`, empty ones kept).
    pub(crate) fn specs(self) -> core::str::Split<'a, char> {
        self.text.split('-')
    }

    /// The specifications of one kind letter (`i`, `p`, …): what follows the letter, then
    /// the numbers after the first `:` (those that are numbers).
    fn specs_of(self, kind: u8) -> impl Iterator<Item = (&'a str, Numbers<'a>)> {
        self.specs().filter_map(move |spec| {
            let mut parts = spec.split(':');
            let head = parts.next().unwrap_or("");
            // The kind is one ASCII letter; anything else is no specification asked about.
            (head.as_bytes().first() == Some(&kind)).then(|| (&head[1..], Numbers(parts)))
        })
    }

    /// The size and ABI alignment in bits of a pointer in `address_space` (`p[n]:size:abi`,
    /// the last one given): those of address space 0 where the string gives none for it.
    pub(crate) fn pointer(self, address_space: u64) -> (u64, u64) {
        let mut space_0 = DEFAULT_POINTER;
        let mut found = None;
        for (rest, mut numbers) in self.specs_of(b'p') {
            let space = rest.parse().unwrap_or(0);
            let (Some(size), Some(abi)) = (numbers.next(), numbers.next()) else { continue };
            if space == address_space {
                found = Some((size, abi));
            }
            if space == 0 {
                space_0 = (size, abi);
            }
        }
        found.unwrap_or(space_0)
    }

    /// The ABI alignment in bits of an integer of `width` bits: that of the smallest
    /// width given (`iN:abi`, or LLVM's defaults) at least as wide, else of the widest.
    pub(crate) fn int_abi_align(self, width: u64) -> u64 {
        let entries = || DEFAULT_INTS.into_iter().chain(self.alignments(b'i'));
        let wide_enough = entries().map(|e| e.0).filter(|&w| w >= width).min();
        let chosen = wide_enough.or_else(|| entries().map(|e| e.0).max()).unwrap_or(0);
        // The last specification of a width is the one that holds.
        entries().filter(|e| e.0 == chosen).last().map_or(8, |e| e.1)
    }

    /// The preferred alignment in bits of an integer of `width` bits (`iN:abi:pref`; the
    /// ABI alignment where no preferred one is given), chosen as [`Self::int_abi_align`]
    /// chooses.
    pub(crate) fn int_pref_align(self, width: u64) -> u64 {
        let entries = || {
            DEFAULT_INT_PREFS.into_iter().chain(self.specs_of(b'i').filter_map(|(rest, mut numbers)| {
                let abi = numbers.next()?;
                Some((rest.parse().ok()?, numbers.next().unwrap_or(abi)))
            }))
        };
        let wide_enough = entries().map(|e| e.0).filter(|&w| w >= width).min();
        let chosen = wide_enough.or_else(|| entries().map(|e| e.0).max()).unwrap_or(0);
        entries().filter(|e| e.0 == chosen).last().map_or(8, |e| e.1)
    }

    /// The preferred alignment in bits of a pointer in `address_space` (`p[n]:size:abi:pref`;
    /// the ABI one where none is given).
    pub(crate) fn pointer_pref_align(self, address_space: u64) -> u64 {
        let mut found = None;
        for (rest, mut numbers) in self.specs_of(b'p') {
            let (Some(_), Some(abi)) = (numbers.next(), numbers.next()) else { continue };
            if rest.parse().unwrap_or(0) == address_space {
                found = Some(numbers.next().unwrap_or(abi));
            }
        }
        found.unwrap_or_else(|| self.pointer(address_space).1)
    }

    /// The preferred alignment in bits of an aggregate (`a:abi:pref`, the last one given;
    /// LLVM's default is 64).
    pub(crate) fn aggregate_pref_align(self) -> u64 {
        self.specs_of(b'a').last().map_or(64, |(_, mut numbers)| {
            let abi = numbers.next().unwrap_or(0);
            numbers.next().unwrap_or(abi)
        })
    }

    /// The ABI alignment in bits of a float of `width` bits (`fN:abi`, the last one given,
    /// or LLVM's default), if either gives one.
    pub(crate) fn float_abi_align(self, width: u64) -> Option<u64> {
        DEFAULT_FLOATS.into_iter().chain(self.alignments(b'f')).filter(|e| e.0 == width).last().map(|e| e.1)
    }

    /// `iN:abi` or `fN:abi` specifications: (N, abi).
    fn alignments(self, kind: u8) -> impl Iterator<Item = (u64, u64)> + 'a {
        self.specs_of(kind).filter_map(|(rest, mut numbers)| Some((rest.parse().ok()?, numbers.next()?)))
    }

    /// The ABI alignment in bits of an aggregate (`a:abi`, the last one given), 0 if none.
    pub(crate) fn aggregate_abi_align(self) -> u64 {
        self.specs_of(b'a').last().map_or(0, |(_, mut numbers)| numbers.next().unwrap_or(0))
    }

    /// The address space functions are in (`P<n>`, the first that is a number), 0 if none.
    pub(crate) fn program_address_space(self) -> u64 {
        self.address_space(b'P')
    }

    /// The address space of allocas (`A<n>`, the first that is a number), 0 if none.
    pub(crate) fn alloca_address_space(self) -> u64 {
        self.address_space(b'A')
    }

    fn address_space(self, kind: u8) -> u64 {
        let letter = char::from(kind);
        self.specs().find_map(|spec| spec.strip_prefix(letter)?.parse().ok()).unwrap_or(0)
    }

    /// How names are mangled (`m:<mode>`, the first one given).
    pub(crate) fn mangling(self) -> Mangling {
        let Some(mode) = self.specs().find_map(|spec| spec.strip_prefix("m:")) else { return Mangling::None };
        match mode {
            "e" => Mangling::Elf,
            "o" => Mangling::MachO,
            "w" => Mangling::WinCoff,
            "x" => Mangling::WinCoffX86,
            "m" => Mangling::Mips,
            "l" => Mangling::Goff,
            "a" => Mangling::Xcoff,
            _ => Mangling::None,
        }
    }
}

/// The numbers of a specification after its head (`64:64` of `p:64:64`); parts that are
/// not numbers are passed over.
struct Numbers<'a>(core::str::Split<'a, char>);

impl Iterator for Numbers<'_> {
    type Item = u64;

    fn next(&mut self) -> Option<u64> {
        self.0.by_ref().find_map(|p| p.parse().ok())
    }
}

/// What the datalayout says about names: LLVM's mangling modes (`m:e`, `m:o`, …), and the
/// prefixes each gives (`DataLayout::getGlobalPrefix`, `getPrivateGlobalPrefix`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Mangling {
    /// No `m:` specification, or one LLVM does not know.
    None,
    /// `m:e`.
    Elf,
    /// `m:o`.
    MachO,
    /// `m:w`.
    WinCoff,
    /// `m:x`: 32-bit Windows.
    WinCoffX86,
    /// `m:m`.
    Mips,
    /// `m:l`.
    Goff,
    /// `m:a`.
    Xcoff,
}

impl Mangling {
    /// The prefix of every global name (`_` on Mach-O and 32-bit Windows).
    pub(crate) fn global_prefix(self) -> Option<u8> {
        matches!(self, Mangling::MachO | Mangling::WinCoffX86).then_some(b'_')
    }

    /// The prefix of private names (`.L` on ELF).
    pub(crate) fn private_prefix(self) -> &'static [u8] {
        match self {
            Mangling::None => b"",
            Mangling::Elf | Mangling::WinCoff => b".L",
            Mangling::Goff => b"L#",
            Mangling::Mips => b"$",
            Mangling::MachO | Mangling::WinCoffX86 => b"L",
            Mangling::Xcoff => b"L..",
        }
    }

    /// `doNotMangleLeadingQuestionMark`: Windows leaves C++ names (`?f@@YAXXZ`) unprefixed.
    pub(crate) fn no_prefix_for_question_mark(self) -> bool {
        matches!(self, Mangling::WinCoff | Mangling::WinCoffX86)
    }
}

/// Type sizes and alignments under a datalayout, as LLVM's `DataLayout` computes them
/// (for common symbols' sizes, and the alignment LLVM gives instructions an old file
/// wrote none for).
#[derive(Clone, Copy, Debug)]
pub(crate) struct TypeLayout<'d> {
    dl: DataLayout<'d>,
}

impl<'d> TypeLayout<'d> {
    pub(crate) fn new(dl: &'d str) -> Self {
        TypeLayout { dl: DataLayout::new(dl) }
    }

    pub(crate) fn pointer(&self, space: u64) -> (u64, u64) {
        self.dl.pointer(space)
    }

    /// ABI alignment in bytes.
    pub(crate) fn align(&self, types: &TypeTable, id: TypeId, depth: usize) -> Option<u64> {
        if depth > MAX_CHAIN {
            return None;
        }
        let bits = match types.get(id)? {
            Type::Integer(w) | Type::Byte(w) => self.dl.int_abi_align(*w),
            Type::Half | Type::BFloat => 16,
            Type::Float => 32,
            Type::Double => self.dl.float_abi_align(64).unwrap_or(64),
            // A 64-bit vector type to LLVM.
            Type::X86Mmx => 64,
            Type::X86Fp80 | Type::Fp128 | Type::PpcFp128 => 128,
            Type::Pointer { address_space, .. } => self.pointer(*address_space).1,
            Type::Array { element, .. } => return self.align(types, *element, depth + 1),
            Type::Vector { .. } => {
                let size = self.store_size(types, id, depth + 1)?;
                return Some(size.max(1).next_power_of_two());
            }
            Type::Struct { packed: true, .. } => 8,
            Type::Struct { elements: Some(e), .. } => {
                let mut a = (self.dl.aggregate_abi_align() / 8).max(1);
                for t in e {
                    a = a.max(self.align(types, *t, depth + 1)?);
                }
                return Some(a);
            }
            _ => 8,
        };
        Some((bits / 8).max(1))
    }

    /// Store size in bytes.
    pub(crate) fn store_size(&self, types: &TypeTable, id: TypeId, depth: usize) -> Option<u64> {
        if depth > MAX_CHAIN {
            return None;
        }
        Some(match types.get(id)? {
            Type::Integer(w) | Type::Byte(w) => w.div_ceil(8),
            Type::Half | Type::BFloat => 2,
            Type::Float => 4,
            Type::Double | Type::X86Mmx => 8,
            Type::X86Fp80 => 10,
            Type::Fp128 | Type::PpcFp128 => 16,
            Type::Pointer { address_space, .. } => self.pointer(*address_space).0 / 8,
            Type::Array { len, element } => len.checked_mul(self.alloc_size(types, *element, depth + 1)?)?,
            Type::Vector { len, element, .. } => {
                let bits = match types.get(*element)? {
                    Type::Integer(w) => *w,
                    _ => self.store_size(types, *element, depth + 1)?.checked_mul(8)?,
                };
                len.checked_mul(bits)?.div_ceil(8)
            }
            Type::Struct { packed, elements: Some(e), .. } => {
                let mut offset = 0u64;
                for t in e {
                    if !packed {
                        let a = self.align(types, *t, depth + 1)?;
                        offset = offset.checked_next_multiple_of(a)?;
                    }
                    offset = offset.checked_add(self.alloc_size(types, *t, depth + 1)?)?;
                }
                if !packed {
                    offset = offset.checked_next_multiple_of(self.align(types, id, depth + 1)?)?;
                }
                offset
            }
            _ => return None,
        })
    }

    /// `DataLayout::getTypeAllocSize`: the store size rounded up to the ABI alignment.
    pub(crate) fn alloc_size(&self, types: &TypeTable, id: TypeId, depth: usize) -> Option<u64> {
        let size = self.store_size(types, id, depth)?;
        size.checked_next_multiple_of(self.align(types, id, depth)?)
    }
}

impl TypeLayout<'_> {
    /// `DataLayout::getPrefTypeAlign` in bytes: what LLVM gives an `alloca` an old file
    /// wrote no alignment for. Integers and pointers take their specification's preferred
    /// alignment, structs at least the aggregate one (`a:abi:pref`, 64 bits by default).
    pub(crate) fn pref_align(&self, types: &TypeTable, id: TypeId, depth: usize) -> Option<u64> {
        if depth > MAX_CHAIN {
            return None;
        }
        match types.get(id)? {
            Type::Integer(w) => Some((self.dl.int_pref_align(*w) / 8).max(1)),
            Type::Pointer { address_space, .. } => Some((self.dl.pointer_pref_align(*address_space) / 8).max(1)),
            Type::Array { element, .. } => self.pref_align(types, *element, depth + 1),
            Type::Struct { packed, elements: Some(_), .. } => {
                let layout = if *packed { 1 } else { self.align(types, id, depth + 1)? };
                Some(layout.max(self.dl.aggregate_pref_align() / 8))
            }
            _ => self.align(types, id, depth),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const X86_64: &str = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128";
    const AMDGPU: &str = "e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-\
                          i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-\
                          v2048:2048-n32:64-S32-A5-G1-ni:7:8:9";

    #[test]
    fn pointers_by_address_space() {
        let dl = DataLayout::new(X86_64);
        assert_eq!(dl.pointer(0), (64, 64));
        assert_eq!(dl.pointer(270), (32, 32));
        assert_eq!(dl.pointer(272), (64, 64));
        // An address space the string does not give is address space 0's.
        assert_eq!(DataLayout::new("e-p:32:32-p1:16:8").pointer(7), (32, 32));
        assert_eq!(DataLayout::new("e-p:32:32-p1:16:8").pointer(1), (16, 8));
        // The last specification holds; `p` without a size is passed over.
        assert_eq!(DataLayout::new("p:32:32-p:16:16-p:8").pointer(0), (16, 16));
        assert_eq!(DataLayout::new("").pointer(3), (64, 64));
        assert_eq!(DataLayout::new(AMDGPU).pointer(7), (160, 256));
        assert_eq!(DataLayout::new(AMDGPU).pointer(3), (32, 32));
    }

    #[test]
    fn integer_and_float_alignments() {
        let dl = DataLayout::new(X86_64);
        assert_eq!(dl.int_abi_align(64), 64);
        assert_eq!(dl.int_abi_align(128), 128);
        // Not given: the next wider width's, else the widest's.
        assert_eq!(dl.int_abi_align(24), 32);
        assert_eq!(dl.int_abi_align(256), 128);
        assert_eq!(DataLayout::new("").int_abi_align(64), 32);
        assert_eq!(DataLayout::new("").int_abi_align(1), 8);
        assert_eq!(DataLayout::new("").int_abi_align(100), 32);
        assert_eq!(DataLayout::new("i64:64-i64:128").int_abi_align(64), 128);
        assert_eq!(dl.float_abi_align(64), Some(64));
        assert_eq!(dl.float_abi_align(80), Some(128));
        assert_eq!(dl.float_abi_align(96), None);
        assert_eq!(DataLayout::new("e-f64:32:64").float_abi_align(64), Some(32));
    }

    #[test]
    fn aggregates_address_spaces_and_mangling() {
        assert_eq!(DataLayout::new("e-a:0:64").aggregate_abi_align(), 0);
        assert_eq!(DataLayout::new("e-a:64").aggregate_abi_align(), 64);
        assert_eq!(DataLayout::new(X86_64).aggregate_abi_align(), 0);
        let amdgpu = DataLayout::new(AMDGPU);
        assert_eq!(amdgpu.alloca_address_space(), 5);
        assert_eq!(amdgpu.program_address_space(), 0);
        // The first that is a number.
        assert_eq!(DataLayout::new("e-Px-P1-P2").program_address_space(), 1);
        assert_eq!(DataLayout::new("e-m:e").alloca_address_space(), 0);
        assert_eq!(DataLayout::new(X86_64).mangling(), Mangling::Elf);
        assert_eq!(DataLayout::new("e-m:o-i64:64").mangling(), Mangling::MachO);
        assert_eq!(DataLayout::new("e-m:x-p:32:32").mangling(), Mangling::WinCoffX86);
        assert_eq!(DataLayout::new("e-m:q").mangling(), Mangling::None);
        assert_eq!(DataLayout::new("e-m:w-m:o").mangling(), Mangling::WinCoff);
        assert_eq!(DataLayout::new("").mangling(), Mangling::None);
        assert_eq!(Mangling::WinCoffX86.global_prefix(), Some(b'_'));
        assert_eq!(Mangling::Xcoff.private_prefix(), b"L..");
    }

    #[test]
    fn specifications_in_order() {
        let specs: alloc::vec::Vec<&str> = DataLayout::new("e-m:e--i64:64").specs().collect();
        assert_eq!(specs, ["e", "m:e", "", "i64:64"]);
    }
}
