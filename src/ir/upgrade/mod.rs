//! What LLVM's bitcode reader changes in a module as it reads it (`AutoUpgrade.cpp`,
//! `BitcodeReader.cpp`), for a chosen reading version: the module as written stays what
//! [`Module`](crate::ir::Module) gives; this layer answers what LLVM N makes of it.
//!
//! ```
//! use llvm_bitstream_reader::ir::{AttrIndex, upgrade};
//!
//! // LLVM 22's reader gives every `llvm.memcpy.*` declaration the attributes of its
//! // intrinsic table, whatever the file said.
//! let memcpy = upgrade::intrinsic_attributes(22, b"llvm.memcpy.p0.p0.i64").unwrap();
//! assert_eq!(memcpy.base_name_len(), "llvm.memcpy".len());
//! let groups = memcpy.groups(|_| Some(64));
//! let function = groups.iter().find(|g| g.index == AttrIndex::Function).unwrap();
//! assert!(function.attributes.iter().any(|a| a.kind().and_then(|k| k.name()) == Some("nocallback")));
//! // LLVM 14 had no `nocallback`; its memcpy is `argmemonly`.
//! let old = upgrade::intrinsic_attributes(14, b"llvm.memcpy.p0i8.p0i8.i64").unwrap();
//! assert!(old.groups(|_| Some(64)).iter().any(|g| g.attributes.iter().any(|a| a.kind().and_then(|k| k.name()) == Some("argmemonly"))));
//! // Not an intrinsic of that version (or not overloaded, with a suffix): none.
//! assert!(upgrade::intrinsic_attributes(22, b"llvm.no.such.thing").is_none());
//! ```

mod alignment;
mod attributes;
mod comdats;
mod constant_exprs;
mod datalayout;
mod debug_info;
mod debug_records;
mod ifunc;
mod inline_asm;
pub(crate) mod intrinsics;
#[rustfmt::skip]
mod intrinsic_table;
mod legacy_attributes;
mod module_flags;
mod structors;

pub(crate) use alignment::explicit_alignment_in;
pub use alignment::{MemoryAccess, explicit_alignment};
pub use attributes::{ParamUpgrade, has_strictfp, strictfp_call_attributes, type_incompatible, upgraded_attributes};
pub use comdats::has_implicit_comdat;
pub use constant_exprs::keeps_constant_expression;
pub use datalayout::upgraded_datalayout;
pub use debug_info::{declare_expression, strips_debug_info, upgraded_expression, upgrades_declares};
pub use debug_records::{debug_record_code, drops_declaration};
pub use ifunc::casts_ifunc_resolver;
pub use inline_asm::{indirect_arguments, label_constraints, upgraded_inline_asm};
pub use intrinsics::{
    ArgumentUpgrade, INTRINSIC_TABLE_VERSIONS, IntrinsicAttributes, becomes_aligned_store, intrinsic_attributes,
    lifetime_loses_size, rebuilds_calls, remangled_intrinsic_name, renamed_intrinsic, renamed_runtime_function,
    upgraded_arguments, upgraded_intrinsic_name,
};
pub use legacy_attributes::{legacy_attribute_group, legacy_attributes};
pub use module_flags::{module_flag_behavior, renamed_module_flag};
pub use structors::two_field_structor_array;
