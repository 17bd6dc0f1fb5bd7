// Prints LLVM N's intrinsic table as the bitcode reader of LLVM N applies it: for every
// intrinsic, the attributes `Intrinsic::getAttributes` gives it (UpgradeIntrinsicFunction
// sets them on every intrinsic declaration a module declares). One line per intrinsic:
//   name <TAB> o|- <TAB> index:attr[,attr...] <TAB> ...
// ("o": overloaded, so that `llvm.memcpy.p0.p0.i64` is `llvm.memcpy`)
// index is "fn", "ret" or the parameter number from 0; attr is the attribute's name, with
// "=value" for integer attributes (align, memory, captures, ...) and
// "=lo:hi" for a range (signed 64-bit, to be truncated to the parameter's width).
// Built against one LLVM's headers and library (see gen.sh).
#include "llvm/ADT/APInt.h"
#include "llvm/IR/Attributes.h"
#include "llvm/IR/ConstantRange.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/Intrinsics.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/Config/llvm-config.h"
#include <cstdio>
#include <string>
#include <vector>

using namespace llvm;

static std::string attrs(const AttributeSet &set) {
  std::string out;
  for (const Attribute &a : set) {
    if (!out.empty()) out += ",";
    if (a.isStringAttribute()) {
      out += "\"" + a.getKindAsString().str() + "\"=\"" + a.getValueAsString().str() + "\"";
      continue;
    }
    out += Attribute::getNameFromAttrKind(a.getKindAsEnum()).str();
    if (a.isIntAttribute()) {
      out += "=" + std::to_string(a.getValueAsInt());
    }
#if LLVM_VERSION_MAJOR >= 19
    else if (a.isConstantRangeAttribute()) {
      const ConstantRange &r = a.getValueAsConstantRange();
      out += "=" + std::to_string(r.getLower().getSExtValue()) + ":" + std::to_string(r.getUpper().getSExtValue());
    }
#endif
    else if (a.isTypeAttribute()) {
      out += "=<type>";
    }
  }
  return out;
}

int main() {
  LLVMContext ctx;
#if LLVM_VERSION_MAJOR >= 20
  // Parameter attributes of ranges depend on the parameter's width: 64-bit parameters,
  // printed signed, truncated to the real width by the reader of the table.
  Type *i64 = Type::getInt64Ty(ctx);
  std::vector<Type *> params(64, i64);
  FunctionType *ft = FunctionType::get(i64, params, false);
#endif
  for (unsigned id = 1; id < Intrinsic::num_intrinsics; ++id) {
#if LLVM_VERSION_MAJOR >= 20
    AttributeList list = Intrinsic::getAttributes(ctx, (Intrinsic::ID)id, ft);
#else
    AttributeList list = Intrinsic::getAttributes(ctx, (Intrinsic::ID)id);
#endif
    std::string line = Intrinsic::getBaseName((Intrinsic::ID)id).str();
    line += Intrinsic::isOverloaded((Intrinsic::ID)id) ? "\to" : "\t-";
#if LLVM_VERSION_MAJOR >= 14
    AttributeSet fn = list.getFnAttrs();
#else
    AttributeSet fn = list.getFnAttributes();
#endif
    if (fn.hasAttributes()) line += "\tfn:" + attrs(fn);
#if LLVM_VERSION_MAJOR >= 14
    AttributeSet ret = list.getRetAttrs();
#else
    AttributeSet ret = list.getRetAttributes();
#endif
    if (ret.hasAttributes()) line += "\tret:" + attrs(ret);
    for (unsigned i = 0; i < 64; ++i) {
#if LLVM_VERSION_MAJOR >= 14
      AttributeSet p = list.getParamAttrs(i);
#else
      AttributeSet p = list.getParamAttributes(i);
#endif
      if (p.hasAttributes()) line += "\t" + std::to_string(i) + ":" + attrs(p);
    }
    std::printf("%s\n", line.c_str());
  }
}
