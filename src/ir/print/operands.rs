//! Each instruction's operands as `llvm-dis` prints them in the module's text
//! ([`Bodies::printed_instructions`]): the same printer and numbering as
//! [`Bodies::display_module`], one instruction at a time, for analyses that want an
//! operand's text (`%3`, `@g`, `getelementptr (…)`, `!12`) beside its value.

use alloc::string::String;
use alloc::vec::Vec;
use core::ops::Range;

use crate::error::Error;
use crate::ir::body::{Bodies, Body, InstKind, Value};
use crate::ir::print::DisOptions;
use crate::ir::print::function::{BlockSlots, FunctionDisplay};
use crate::ir::print::slot_tracker::ModuleSlots;
use crate::ir::view::{Listed, ModuleView};

/// One instruction of a body as the module's `llvm-dis` text prints it: its result type
/// and each operand's type and value, as [`Bodies::printed_instructions`] gives them.
pub struct PrintedInstruction<'s> {
    /// The function (its index in the module).
    pub function: usize,
    /// The body as LLVM of the printing version reads it (the view's): the instruction
    /// and its operands are `body.instructions[instruction]` and `body.operands(…)`.
    pub body: &'s Body,
    /// The instruction's index in `body.instructions`.
    pub instruction: u32,
    text: &'s str,
    result_type: Range<usize>,
    operands: &'s [(Option<Range<usize>>, Range<usize>)],
}

impl<'s> PrintedInstruction<'s> {
    /// The instruction's type as the text prints types (`void` for none).
    pub fn result_type(&self) -> &'s str {
        self.text.get(self.result_type.clone()).unwrap_or("")
    }

    /// How many operands it has (those of [`Body::operands`]).
    pub fn operand_count(&self) -> usize {
        self.operands.len()
    }

    /// Operand `n`'s type as the text prints types (`i32`, `ptr`, `%struct.S`); `None`
    /// for an operand without one or past the last.
    pub fn operand_type(&self, n: usize) -> Option<&'s str> {
        self.text.get(self.operands.get(n)?.0.clone()?)
    }

    /// Operand `n`'s value as the text prints it, without its type: `%x` or `%3` for a
    /// local, `@g` for a global, a constant's text (`7`, `null`, `getelementptr (…)`), a
    /// block's label (`%5`), metadata (`!12`, `!DIExpression()`); `None` past the last.
    pub fn operand(&self, n: usize) -> Option<&'s str> {
        self.text.get(self.operands.get(n)?.1.clone())
    }
}

impl<'m, 'a> Bodies<'m, 'a> {
    /// Calls `each` for every instruction of every body, in the order the module's text
    /// prints its functions, with the view that printed it (the module as LLVM of that
    /// version reads it: its names, types and constants) and the instruction's operands as `llvm-dis` of `options`' version prints
    /// them there: numbered by the same slots (the unnamed locals, the module's metadata
    /// as every earlier function numbered it) and printed by the same printer as
    /// [`Bodies::display_module`], so each operand's text is the one in the module's text.
    /// A body that fails to decode stops the walk with its error.
    ///
    /// ```
    /// use llvm_bitstream_reader::ir::{DisOptions, Module, Value};
    ///
    /// # fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// let bytes = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/testdata/rustc_llvm22_o3.bc"))?;
    /// let module = Module::parse(&bytes)?;
    /// let bodies = module.bodies()?;
    /// let text = bodies.display_module(DisOptions::default()).to_string();
    /// let mut globals = 0;
    /// bodies.printed_instructions(DisOptions::default(), |_view, inst| {
    ///     let i = &inst.body.instructions[inst.instruction as usize];
    ///     for (n, operand) in inst.body.operands(i).iter().enumerate() {
    ///         if let Value::Global(_) = operand.value {
    ///             // `@name`, as the module's text names it.
    ///             let printed = inst.operand(n).unwrap();
    ///             assert!(printed.starts_with('@') && text.contains(printed));
    ///             globals += 1;
    ///         }
    ///     }
    /// })?;
    /// assert!(globals > 0);
    /// # Ok(()) }
    /// ```
    pub fn printed_instructions(
        &self,
        options: DisOptions,
        mut each: impl FnMut(&ModuleView<'_, 'm, 'a>, &PrintedInstruction<'_>),
    ) -> Result<(), Error> {
        let view = self.view(options.llvm_version);
        let block_slots = BlockSlots::new(&view);
        // The metadata numbering grows as the module's print grows it, function by
        // function in the printed order.
        let mut md = ModuleSlots::new(&view);
        let mut body = Body::default();
        let mut text = String::new();
        let mut operands: Vec<(Option<Range<usize>>, Range<usize>)> = Vec::new();
        for &listed in view.function_order() {
            let Listed::Function(index) = listed else { continue };
            let defined = view.body_into(index, &mut body)?;
            let scope = md.add_function(&view, index, defined.then_some(&body));
            if !defined {
                continue;
            }
            // Printed by the printer `display_module` prints the function with.
            let display = FunctionDisplay {
                bodies: self,
                index,
                body: Some(&body),
                options,
                slots: Some((&md, scope)),
                block_slots: Some(&block_slots),
                texts: None,
                view: Some(&view),
            };
            display.with_printer(|p| {
                for (i, inst) in body.instructions.iter().enumerate() {
                    text.clear();
                    operands.clear();
                    // Printing into a String cannot fail but for a printer's own error,
                    // which leaves the text it stopped at.
                    let _ = p.ty(&mut text, inst.ty);
                    let result_type = 0..text.len();
                    for (n, o) in body.operands(inst).iter().enumerate() {
                        // A shufflevector's mask is printed as LLVM holds it (a list of
                        // numbers, `poison` for none from LLVM 17), not as the constant.
                        if let (InstKind::ShuffleVector, 2, Value::Constant(id)) = (inst.kind, n, o.value) {
                            let mut mask = String::new();
                            let _ = p.constants.shuffle_mask(&mut mask, id);
                            let mask = mask.strip_prefix(", ").unwrap_or(&mask);
                            let start = text.len();
                            text.push_str(mask);
                            operands.push(match mask.find("> ") {
                                Some(end) => (Some(start..start + end + 1), start + end + 2..text.len()),
                                None => (None, start..text.len()),
                            });
                            continue;
                        }
                        let ty_start = text.len();
                        let ty = match view.types().get(o.ty) {
                            Some(_) => {
                                let _ = p.ty(&mut text, o.ty);
                                Some(ty_start..text.len())
                            }
                            None => None,
                        };
                        let value_start = text.len();
                        let _ = p.value(&mut text, o);
                        operands.push((ty, value_start..text.len()));
                    }
                    each(
                        &view,
                        &PrintedInstruction {
                            function: index,
                            body: &body,
                            instruction: i as u32,
                            text: &text,
                            result_type,
                            operands: &operands,
                        },
                    );
                }
            });
        }
        Ok(())
    }
}
