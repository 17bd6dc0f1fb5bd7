// LLVM 22's cost of reading every function body, for benches/bodies/run.sh: reads each
// module of a bitcode file lazily, then `materializeAll()` (every body, every metadata
// block), and
// prints the median time of N iterations and the number of instructions.
// Usage: materialize22 FILE [ITERS]
// Build: g++ -O2 $(llvm-config-22 --cxxflags) materialize22.cpp $(llvm-config-22 --ldflags --libs bitreader core support)
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBuffer.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

using namespace llvm;

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: materialize22 FILE [ITERS]\n");
    return 2;
  }
  int iters = argc > 2 ? atoi(argv[2]) : 5;
  auto buf = MemoryBuffer::getFile(argv[1]);
  if (!buf) {
    fprintf(stderr, "cannot read %s\n", argv[1]);
    return 1;
  }
  std::vector<double> ms;
  size_t instructions = 0;
  for (int i = 0; i < iters; i++) {
    LLVMContext context;
    auto start = std::chrono::steady_clock::now();
    // Every module of the file (llvm-cat -b writes several), each read lazily, then
    // materialized whole.
    auto list = getBitcodeModuleList((*buf)->getMemBufferRef());
    if (!list) {
      fprintf(stderr, "cannot parse %s: %s\n", argv[1], toString(list.takeError()).c_str());
      return 1;
    }
    std::vector<std::unique_ptr<Module>> modules;
    for (BitcodeModule &bm : *list) {
      auto module = bm.getLazyModule(context, false, false);
      if (!module) {
        fprintf(stderr, "getLazyModule: %s\n", toString(module.takeError()).c_str());
        return 1;
      }
      if (Error e = (*module)->materializeAll()) {
        fprintf(stderr, "materializeAll: %s\n", toString(std::move(e)).c_str());
        return 1;
      }
      modules.push_back(std::move(*module));
    }
    auto end = std::chrono::steady_clock::now();
    ms.push_back(std::chrono::duration<double, std::milli>(end - start).count());
    instructions = 0;
    for (auto &module : modules)
      for (Function &f : *module)
        for (BasicBlock &bb : f)
          instructions += bb.size();
  }
  std::sort(ms.begin(), ms.end());
  printf("%.3f ms median, %zu instructions\n", ms[ms.size() / 2], instructions);
  return 0;
}
