//! The LLVM IR layer: what the records of an IR bitcode module mean, read without LLVM.
//!
//! ```
//! use llvm_bitstream_reader::ir::{SymbolFlags, Visibility};
//!
//! let flags = SymbolFlags(SymbolFlags::GLOBAL | SymbolFlags::EXECUTABLE | 1);
//! assert!(flags.global() && flags.executable());
//! assert_eq!(flags.visibility(), Visibility::Hidden);
//! ```

mod symbol;
pub mod symtab;

pub use symbol::{SymbolFlags, Visibility};
