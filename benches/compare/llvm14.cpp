// Reference reader for benches/compare: walks every record of an LLVM
// bitstream file with LLVM 14's llvm::BitstreamCursor and prints
//   checksum blocks=.. records=.. opsum=.. blob_bytes=..
// Usage: llvm14 FILE [--iters N] [--skip-functions] [--sink]
// Build: g++ -O2 $(llvm-config-14 --cxxflags) llvm14.cpp $(llvm-config-14 --ldflags --libs bitstreamreader support)
#include "llvm/ADT/Optional.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Bitstream/BitstreamReader.h"
#include "llvm/Support/Error.h"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

using namespace llvm;

struct Counts {
  uint64_t blocks = 0, records = 0, opsum = 0, blob_bytes = 0;
};

[[noreturn]] static void die(const std::string &msg) {
  fprintf(stderr, "error: %s\n", msg.c_str());
  printf("error\n");
  exit(1);
}

template <typename T> static T check(Expected<T> v, const char *what) {
  if (!v)
    die(std::string(what) + ": " + toString(v.takeError()));
  return std::move(*v);
}
static void check(Error e, const char *what) {
  if (e)
    die(std::string(what) + ": " + toString(std::move(e)));
}

static uint32_t le32(const uint8_t *p) {
  return uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 |
         uint32_t(p[3]) << 24;
}

// Strip the Darwin bitcode wrapper header if present.
static ArrayRef<uint8_t> unwrap(ArrayRef<uint8_t> data) {
  if (data.size() >= 20 && le32(data.data()) == 0x0B17C0DE) {
    uint64_t off = le32(data.data() + 8), size = le32(data.data() + 12);
    if (off + size > data.size())
      die("bitcode wrapper: stream out of bounds");
    return data.slice(off, size);
  }
  return data;
}

// The sink rig's per-operand sink: the value is made opaque to the optimiser
// before it is added (Rust's std::hint::black_box), so the operands cannot be
// summed as a batch.
static inline __attribute__((always_inline)) void sink(Counts &c, uint64_t v) {
  asm volatile("" : "+r"(v));
  c.opsum += v;
}

// One walk; Sink picks the rig (see README.md). The sink rig sends every operand
// through sink() and keeps a stack of open block ids (BLOCKINFO is read by
// ReadBlockInfoBlock, never entered); the fold rig counts depth only.
template <bool Sink>
static Counts walk(ArrayRef<uint8_t> stream, bool skip_functions) {
  Counts c;
  if (stream.size() < 4)
    die("file too short");
  BitstreamCursor cur(stream);
  check(cur.Read(32), "magic");
  // A BLOCKINFO block replaces the previous table (one per module in
  // llvm-cat -b files).
  std::unique_ptr<BitstreamBlockInfo> info;
  SmallVector<uint64_t, 64> vals;
  std::vector<unsigned> open;
  open.reserve(16);
  unsigned depth = 0;
  const uint64_t size = stream.size();
  for (;;) {
    if (depth == 0 && cur.getCurrentByteNo() + 8 >= size)
      break;
    BitstreamEntry e = check(cur.advance(), "advance");
    switch (e.Kind) {
    case BitstreamEntry::Error:
      die("malformed stream");
    case BitstreamEntry::EndBlock:
      if (depth == 0)
        die("END_BLOCK at top level");
      --depth;
      if (Sink)
        open.pop_back();
      break;
    case BitstreamEntry::SubBlock:
      if (e.ID == 0) {
        Optional<BitstreamBlockInfo> bi =
            check(cur.ReadBlockInfoBlock(), "blockinfo");
        if (!bi)
          die("bad BLOCKINFO block");
        info = std::make_unique<BitstreamBlockInfo>(std::move(*bi));
        cur.setBlockInfo(info.get());
        break;
      }
      ++c.blocks;
      if (skip_functions && e.ID == 12) {
        check(cur.SkipBlock(), "SkipBlock");
      } else {
        check(cur.EnterSubBlock(e.ID), "EnterSubBlock");
        ++depth;
        if (Sink)
          open.push_back(e.ID);
      }
      break;
    case BitstreamEntry::Record: {
      vals.clear();
      StringRef blob;
      unsigned code = check(cur.readRecord(e.ID, vals, &blob), "readRecord");
      ++c.records;
      if (Sink) {
        sink(c, code);
        for (uint64_t v : vals)
          sink(c, v);
      } else {
        uint64_t s = code;
        for (uint64_t v : vals)
          s += v;
        c.opsum += s;
      }
      c.blob_bytes += blob.size();
      break;
    }
    }
  }
  return c;
}

int main(int argc, char **argv) {
  const char *path = nullptr;
  int iters = 5;
  bool skip = false, use_sink = false;
  for (int i = 1; i < argc; ++i) {
    if (!strcmp(argv[i], "--iters") && i + 1 < argc)
      iters = std::max(1, atoi(argv[++i]));
    else if (!strcmp(argv[i], "--skip-functions"))
      skip = true;
    else if (!strcmp(argv[i], "--sink"))
      use_sink = true;
    else
      path = argv[i];
  }
  if (!path) {
    fprintf(stderr, "usage: %s FILE [--iters N] [--skip-functions] [--sink]\n", argv[0]);
    return 2;
  }
  FILE *f = fopen(path, "rb");
  if (!f)
    die(std::string("cannot open ") + path);
  std::vector<uint8_t> bytes;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  bytes.resize(n);
  if (n && fread(bytes.data(), 1, n, f) != size_t(n))
    die("short read");
  fclose(f);
  ArrayRef<uint8_t> stream = unwrap(ArrayRef<uint8_t>(bytes));

  std::vector<double> ms;
  Counts c;
  for (int i = 0; i < iters; ++i) {
    auto t0 = std::chrono::steady_clock::now();
    c = use_sink ? walk<true>(stream, skip) : walk<false>(stream, skip);
    auto t1 = std::chrono::steady_clock::now();
    ms.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
  }
  std::vector<double> sorted = ms;
  std::sort(sorted.begin(), sorted.end());
  double median = sorted.size() % 2 ? sorted[sorted.size() / 2]
                                    : (sorted[sorted.size() / 2 - 1] +
                                       sorted[sorted.size() / 2]) / 2;
  fprintf(stderr, "time_ms=%.3f %.3f\n", sorted[0], median);
  printf("checksum blocks=%llu records=%llu opsum=%llu blob_bytes=%llu\n",
         (unsigned long long)c.blocks, (unsigned long long)c.records,
         (unsigned long long)c.opsum, (unsigned long long)c.blob_bytes);
  return 0;
}
