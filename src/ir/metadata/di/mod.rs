//! Debug-info metadata nodes: the METADATA_BLOCK records LLVM's `MetadataLoader.cpp`
//! (`parseOneMetadata`) reads into `DI*` nodes, decoded into one Copy struct per kind
//! ([`decode()`]) with every older layout the loader still accepts. Which record codes are
//! debug-info nodes is [`is_debug_info_record`](crate::ir::metadata::is_debug_info_record).
//!
//! - `nodes.rs`: the node types ([`DiNode`] and one struct per kind), and each node's
//!   operands in LLVM's order;
//! - `decode.rs`: a record into its node.
//!
//! Printing them as `AsmWriter.cpp` does lives with the printer, on top of this.

mod decode;
mod nodes;

pub(crate) use decode::{COMPILE_UNIT_IMPORTS, decode, operands_in_llvm_order, subprogram_retained_nodes_index};
pub(crate) use nodes::*;
