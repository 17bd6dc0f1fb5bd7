//! Module-level objects as LLVM N reads them: the global variables' list (a two-field
//! `llvm.global_ctors` made anew, after the others), implicit comdats of old objects,
//! inline asm, ifunc resolvers read through a cast, and the
//! function attributes of calls whose `strictfp` the reader turns into `nobuiltin`.

use alloc::borrow::Cow;
use alloc::vec::Vec;

use super::ModuleView;
use crate::ir::body::{Operand, Value};
use crate::ir::module::attributes::{AttrIndex, Attribute};
use crate::ir::module::globals::Alias;
use crate::ir::module::types::{Type, TypeId};
use crate::ir::upgrade;

impl<'b, 'm, 'a> ModuleView<'b, 'm, 'a> {
    /// The global variables (indices of [`Module::globals`](crate::ir::Module::globals))
    /// in the order LLVM's module lists them: a two-field `llvm.global_ctors` or
    /// `llvm.global_dtors` array, which the reader makes anew with three fields
    /// ([`Self::remade_structors`]), after every other.
    pub fn global_order(&self) -> Vec<usize> {
        let m = self.module();
        let (mut order, last): (Vec<usize>, Vec<usize>) =
            (0..m.globals.len()).partition(|&i| self.remade_structors(i).is_none());
        order.extend(last);
        order
    }

    /// For global variable `index`, a two-field `{ i32, void ()* }` structor array that
    /// LLVM's reader makes anew as three-field `{ i32, ptr, ptr }` (with a null third
    /// field, no attachments and no attributes): its two field types.
    pub fn remade_structors(&self, index: usize) -> Option<[TypeId; 2]> {
        upgrade::two_field_structor_array(self.module(), index)
    }

    /// Whether an object of linkage `raw_linkage` (the file's code) without a comdat has
    /// one of its own name as LLVM reads it: an old `weak` or `linkonce` object (of a
    /// module before comdat operands) not on Mach-O.
    pub fn has_implicit_comdat(&self, raw_linkage: u64, comdat_operand: bool) -> bool {
        let triple = self.module().triple.as_deref().unwrap_or("");
        upgrade::has_implicit_comdat(raw_linkage, comdat_operand, triple.as_bytes())
    }

    /// An inline asm string as LLVM holds it: the old ObjC ARC marker rewritten.
    pub fn inline_asm<'s>(&self, asm: Cow<'s, [u8]>) -> Cow<'s, [u8]> {
        match upgrade::upgraded_inline_asm(&asm) {
            Some(upgraded) => Cow::Owned(upgraded),
            None => asm,
        }
    }

    /// Whether LLVM reads an ifunc of value type `value_type` (address space
    /// `address_space`) whose resolver has function type `resolver_type` (address space
    /// `resolver_space`) through a `bitcast` to its resolver type (LLVM 14 and 15 with typed
    /// pointers), in the view's types.
    pub fn casts_ifunc_resolver(
        &self,
        value_type: TypeId,
        address_space: u64,
        resolver_type: TypeId,
        resolver_space: u64,
    ) -> bool {
        !self.reads_opaque()
            && upgrade::casts_ifunc_resolver(
                self.llvm_version(),
                self.types(),
                value_type,
                address_space,
                resolver_type,
                resolver_space,
            )
    }

    /// [`Self::casts_ifunc_resolver`] for ifunc `ifunc` and its resolver.
    pub fn casts_ifunc_resolver_of(&self, ifunc: &Alias<'_>) -> bool {
        self.resolver_type(ifunc.target).is_some_and(|(resolver_type, resolver_space)| {
            self.casts_ifunc_resolver(
                ifunc.common.value_type,
                ifunc.common.address_space,
                resolver_type,
                resolver_space,
            )
        })
    }

    /// The resolver of ifunc `target` (a value id) as a (function type, address space)
    /// pair: a function's, or a constant pointer's pointee.
    fn resolver_type(&self, target: u64) -> Option<(TypeId, u64)> {
        let m = self.module();
        if let Some(g) = m.global(target) {
            return Some((g.value_type, g.address_space));
        }
        let c = self.constants().get(self.resolve(target))?;
        match self.types().get(c.ty) {
            Some(Type::Pointer { pointee: Some(p), address_space }) => Some((*p, *address_space)),
            _ => None,
        }
    }

    /// Whether LLVM's reader turns the `strictfp` of a call's function attributes
    /// (attribute list `list`) into `nobuiltin`: a call of `callee` (not a constrained
    /// floating-point intrinsic) in function `caller`, which has no `strictfp` itself.
    pub fn call_strictfp_is_nobuiltin(&self, caller: usize, callee: Option<&Operand>, list: Option<u32>) -> bool {
        let attributes = self.attributes(list, AttrIndex::Function);
        if !upgrade::has_strictfp(attributes) {
            return false;
        }
        let m = self.module();
        if upgrade::has_strictfp(&self.function_attributes(caller, AttrIndex::Function)) {
            return false;
        }
        let callee: &[u8] = match callee.map(|o| o.value) {
            Some(Value::Global(id)) => m.global(id).map_or(&[], |g| &g.name[..]),
            _ => &[],
        };
        upgrade::strictfp_call_attributes(callee, attributes).is_some()
    }

    /// The function attributes of a call (attribute list `list`) of `callee` in function
    /// `caller` as LLVM holds them: the list's ([`Self::attributes`]), with `strictfp` read
    /// as `nobuiltin` where [`Self::call_strictfp_is_nobuiltin`] says so.
    pub fn call_function_attributes(
        &self,
        caller: usize,
        callee: Option<&Operand>,
        list: Option<u32>,
    ) -> Cow<'_, [Attribute]> {
        let attributes = self.attributes(list, AttrIndex::Function);
        if !self.call_strictfp_is_nobuiltin(caller, callee, list) {
            return Cow::Borrowed(attributes);
        }
        Cow::Owned(self.strictfp_read_as_nobuiltin(list))
    }

    /// Attribute list `list`'s function attributes with `strictfp` read as `nobuiltin`,
    /// sorted.
    pub(crate) fn strictfp_read_as_nobuiltin(&self, list: Option<u32>) -> Vec<Attribute> {
        let attributes = self.attributes(list, AttrIndex::Function);
        let mut out = upgrade::strictfp_call_attributes(b"", attributes).unwrap_or_else(|| attributes.to_vec());
        super::sort_attributes(self.llvm_version(), &mut out);
        out
    }
}
