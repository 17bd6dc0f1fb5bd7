//! Printing functions, and whole modules, in `llvm-dis`'s syntax.
//!
//! ```
//! use llvm_bitstream_reader::ir::{DisOptions, Module};
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let bytes = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/testdata/llvm14_ir_instructions.bc"))?;
//! let module = Module::parse(&bytes)?;
//! let bodies = module.bodies()?;
//! // As llvm-dis 14 prints it: typed pointers.
//! let options = DisOptions { llvm_version: 14 };
//! for (index, _) in module.functions.iter().enumerate() {
//!     let body = bodies.body(index)?;
//!     let text = bodies.display_function(index, body.as_ref(), options).to_string();
//!     assert!(text.starts_with("define ") || text.starts_with("declare "));
//! }
//! # Ok(()) }
//! ```
//!
//! What is printed is `AssemblyWriter`'s text: names quoted as LLVM quotes them, unnamed
//! values numbered as its slot tracker numbers them, constants spelled as it spells them,
//! predecessors in the order LLVM's use lists give (USELIST_BLOCK applied). A whole module
//! ([`Bodies::display_module`]) is the whole file as `llvm-dis` of the chosen version
//! prints it: structs in the order LLVM's `TypeFinder` meets them, comdats, globals,
//! aliases and ifuncs, functions with their metadata attachments and debug records,
//! attribute groups and metadata nodes numbered as LLVM's `SlotTracker` numbers them,
//! named metadata, every debug-info node, and the ThinLTO summary. A function printed
//! alone numbers metadata and attribute groups as `Function::print` does (its own
//! attachments and operands only).

// The printer by what it prints: `module` the whole file, `function` one function's
// header and blocks, `instructions` one instruction, `metadata` references, nodes and
// attachments, `operands` an instruction's operands one by one (for analyses),
// `calling_conv` calling-convention names; the numbering LLVM's
// `SlotTracker` gives in `slot_tracker`, the struct order of its `TypeFinder` in
// `type_order`, DWARF expressions in `dwarf_expr`, the ThinLTO summary in `summary`.
pub(crate) mod attributes;
mod calling_conv;
pub(crate) mod constants;
pub(crate) mod di_nodes;
pub(crate) mod dwarf_expr;
pub(crate) mod escape;
mod function;
pub(crate) mod globals;
mod instructions;
mod metadata;
mod module;
pub(crate) mod numbers;
mod operands;
pub(crate) mod slot_tracker;
mod summary;
pub(crate) mod type_order;
pub(crate) mod types;

use core::fmt;

use crate::ir::body::Bodies;

pub use calling_conv::calling_conv_name;
pub use function::FunctionDisplay;
pub use module::ModuleDisplay;
pub use operands::PrintedInstruction;

/// How to print: which `llvm-dis` to match.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DisOptions {
    /// The LLVM major version whose `llvm-dis` output to match (14, 19, 22, …): below 16
    /// a typed-pointer file prints its pointer types (`i32*`), from 16 on every pointer
    /// is `ptr`.
    pub llvm_version: u32,
}

impl Default for DisOptions {
    /// Matches LLVM 22's `llvm-dis` (22.1), the newest version checked: the one that
    /// reads the bitcode of current rustc and clang.
    fn default() -> Self {
        DisOptions { llvm_version: 22 }
    }
}

impl DisOptions {
    /// The oldest LLVM whose `llvm-dis` the printer matches.
    pub const OLDEST_LLVM_VERSION: u32 = 13;
    /// The newest LLVM whose `llvm-dis` the printer matches: a newer version's upgrades
    /// and syntax are not known, so it is refused, not printed as this one.
    pub const NEWEST_LLVM_VERSION: u32 = crate::ir::view::NEWEST_LLVM_VERSION;

    /// Options matching `llvm-dis` of LLVM `llvm_version`; `None` outside
    /// [`Self::OLDEST_LLVM_VERSION`]`..=`[`Self::NEWEST_LLVM_VERSION`]. Versions between
    /// the ones the tests compare with (13, 14, 15, 16, 19, 22) print by the rules of the
    /// release each rule names.
    ///
    /// ```
    /// use llvm_bitstream_reader::ir::DisOptions;
    /// assert_eq!(DisOptions::for_version(19).map(|o| o.llvm_version), Some(19));
    /// assert!(DisOptions::for_version(99).is_none());
    /// ```
    pub fn for_version(llvm_version: u32) -> Option<Self> {
        (Self::OLDEST_LLVM_VERSION..=Self::NEWEST_LLVM_VERSION)
            .contains(&llvm_version)
            .then_some(DisOptions { llvm_version })
    }

    /// Whether pointers print as `ptr`: from LLVM 16, and in a file whose pointers are
    /// opaque already (LLVM 14's `-opaque-pointers` files).
    pub(crate) fn opaque(self, b: &Bodies<'_, '_>) -> bool {
        crate::ir::view::reads_opaque_pointers(b, self.llvm_version)
    }
}

/// A number in decimal, without the formatting machinery (slots and alignments are most
/// of the numbers a body prints). Below 1000 the digits are a slice of a text made at
/// compile time: checking freshly written digits as UTF-8 was 3% of `--dis` on libclc.
fn write_decimal(f: &mut dyn fmt::Write, n: u64) -> fmt::Result {
    if let Some(digits) = small_decimal(n) {
        return f.write_str(digits);
    }
    let mut buf = [0; 20];
    // Only ASCII digits are written.
    f.write_str(core::str::from_utf8(crate::text::decimal_digits(n, &mut buf)).unwrap_or("?"))
}

/// "000" to "999", three digits each.
const THREE_DIGITS: &str = {
    const BYTES: [u8; 3000] = {
        let mut bytes = [0; 3000];
        let mut n = 0;
        while n < 1000 {
            bytes[n * 3] = b'0' + (n / 100) as u8;
            bytes[n * 3 + 1] = b'0' + (n / 10 % 10) as u8;
            bytes[n * 3 + 2] = b'0' + (n % 10) as u8;
            n += 1;
        }
        bytes
    };
    match core::str::from_utf8(&BYTES) {
        Ok(text) => text,
        Err(_) => panic!("digits are ASCII"),
    }
};

/// `n` in decimal when it is below 1000: its entry of [`THREE_DIGITS`] without the
/// leading zeros.
fn small_decimal(n: u64) -> Option<&'static str> {
    let n = usize::try_from(n).ok().filter(|&n| n < 1000)?;
    let skip = match n {
        0..=9 => 2,
        10..=99 => 1,
        _ => 0,
    };
    THREE_DIGITS.get(n * 3 + skip..n * 3 + 3)
}

#[cfg(test)]
mod tests {
    /// Every number below 1000 is its `format!` text, and none above.
    #[test]
    fn small_decimals_are_formats() {
        for n in 0..1000u64 {
            assert_eq!(super::small_decimal(n), Some(alloc::format!("{n}").as_str()));
        }
        assert_eq!(super::small_decimal(1000), None);
        assert_eq!(super::small_decimal(u64::MAX), None);
        let mut text = alloc::string::String::new();
        for n in [0, 7, 42, 999, 1000, 1001, 10_010, 123_456, 999_999, 1_000_000, u64::MAX] {
            text.clear();
            super::write_decimal(&mut text, n).unwrap();
            assert_eq!(text, alloc::format!("{n}"));
        }
    }
}
