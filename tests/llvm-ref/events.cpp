// llvm-events: reference dumper for the llvm-bitstream-reader differential
// tests. Walks one bitstream file with LLVM 14's BitstreamCursor and prints
// the crate's stable `--format events` line format:
//
//   wrapper version=<v> offset=<o> size=<s> cputype=<c>   (only for 0x0B17C0DE)
//   magic 42 43 c0 de
//   enter <block id> width=<abbrev width> words=<length in 32-bit words>
//   record <code> abbrev=<id> ops=[<a>,<b>,...] blob=<hex>|-
//   exit
//   end bits=<bit position after the last top-level block>
//   error <message>                                       (then exit status 1)
//
// See README.md in this directory for the exact rules.
//
// Usage: llvm-events FILE

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/Optional.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Bitstream/BitCodes.h"
#include "llvm/Bitstream/BitstreamReader.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/ErrorOr.h"
#include "llvm/Support/MemoryBuffer.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <system_error>

using namespace llvm;

namespace {

// All output is accumulated here and written once at exit, so that an error
// (including an LLVM fatal error from inside the cursor) can still print
// everything read so far followed by the `error` line.
std::string Out;

void flushOut() {
  if (!Out.empty())
    std::fwrite(Out.data(), 1, Out.size(), stdout);
  Out.clear();
  std::fflush(stdout);
}

std::string oneLine(std::string S) {
  for (char &C : S)
    if (C == '\n' || C == '\r')
      C = ' ';
  while (!S.empty() && S.back() == ' ')
    S.pop_back();
  return S;
}

[[noreturn]] void fail(const std::string &Msg) {
  Out += "error ";
  Out += oneLine(Msg);
  Out += '\n';
  flushOut();
  std::exit(1);
}

[[noreturn]] void fail(Error E) { fail(toString(std::move(E))); }

// LLVM 14 reports some malformed-input conditions (e.g. an undefined abbrev
// id in readRecord, "Invalid abbrev number") with report_fatal_error.
void fatalHandler(void *, const char *Reason, bool) { fail(Reason); }

void appendU64(uint64_t V) { Out += std::to_string(V); }

const char Hex[] = "0123456789abcdef";

void appendHexByte(uint8_t B) {
  Out += Hex[B >> 4];
  Out += Hex[B & 15];
}

uint32_t readLE32(const uint8_t *P) {
  return uint32_t(P[0]) | (uint32_t(P[1]) << 8) | (uint32_t(P[2]) << 16) |
         (uint32_t(P[3]) << 24);
}

class Walker {
public:
  explicit Walker(ArrayRef<uint8_t> Bytes) : Stream(Bytes), Size(Bytes.size()) {
    Stream.setBlockInfo(&BlockInfo);
  }

  void run() {
    // The 4 magic bytes were printed by the caller; the stream proper
    // starts at bit 32.
    if (Error E = Stream.JumpToBit(32))
      fail(std::move(E));

    unsigned Depth = 0; // number of open (non-BLOCKINFO) blocks
    while (true) {
      if (Depth == 0) {
        // getBitcodeFileContents' stop rule: if there cannot possibly be
        // another block, stop (tolerates up to 8 trailing bytes).
        if (Stream.getCurrentByteNo() + 8 >= Size)
          break;
        Expected<BitstreamEntry> MaybeEntry =
            Stream.advance(BitstreamCursor::AF_DontAutoprocessAbbrevs);
        if (!MaybeEntry)
          fail(MaybeEntry.takeError());
        BitstreamEntry Entry = MaybeEntry.get();
        if (Entry.Kind != BitstreamEntry::SubBlock)
          fail("expected ENTER_SUBBLOCK at top level");
        if (enterBlock(Entry.ID))
          ++Depth;
        continue;
      }

      Expected<BitstreamEntry> MaybeEntry = Stream.advance();
      if (!MaybeEntry)
        fail(MaybeEntry.takeError());
      BitstreamEntry Entry = MaybeEntry.get();
      switch (Entry.Kind) {
      case BitstreamEntry::Error:
        fail("malformed block: unexpected end of stream");
      case BitstreamEntry::EndBlock:
        Out += "exit\n";
        --Depth;
        break;
      case BitstreamEntry::SubBlock:
        if (enterBlock(Entry.ID))
          ++Depth;
        break;
      case BitstreamEntry::Record:
        readAndPrintRecord(Entry.ID);
        break;
      }
    }

    Out += "end bits=";
    appendU64(Stream.GetCurrentBitNo());
    Out += '\n';
  }

private:
  BitstreamCursor Stream;
  size_t Size;
  // The current blockinfo table. Each BLOCKINFO block replaces it entirely,
  // exactly like BitcodeReader::readBlockInfo and llvm-bcanalyzer do.
  BitstreamBlockInfo BlockInfo;
  SmallVector<uint64_t, 64> Vals;

  // Called after ENTER_SUBBLOCK and the block id have been read. Returns true
  // if the block is now open (the caller walks it), false if it was fully
  // handled here (BLOCKINFO).
  bool enterBlock(unsigned BlockID) {
    if (BlockID == bitc::BLOCKINFO_BLOCK_ID) {
      handleBlockInfo();
      return false;
    }
    unsigned NumWords = 0;
    if (Error E = Stream.EnterSubBlock(BlockID, &NumWords))
      fail(std::move(E));
    printEnter(BlockID, NumWords);
    return true;
  }

  void printEnter(unsigned BlockID, unsigned NumWords) {
    Out += "enter ";
    appendU64(BlockID);
    Out += " width=";
    appendU64(Stream.getAbbrevIDWidth());
    Out += " words=";
    appendU64(NumWords);
    Out += '\n';
  }

  // Reads the record with the given abbrev id, prints it, returns its code.
  unsigned readAndPrintRecord(unsigned AbbrevID) {
    Vals.clear();
    StringRef Blob; // data() == nullptr <=> the record has no blob operand
    Expected<unsigned> MaybeCode = Stream.readRecord(AbbrevID, Vals, &Blob);
    if (!MaybeCode)
      fail(MaybeCode.takeError());
    unsigned Code = MaybeCode.get();
    Out += "record ";
    appendU64(Code);
    Out += " abbrev=";
    appendU64(AbbrevID);
    Out += " ops=[";
    for (size_t I = 0; I < Vals.size(); ++I) {
      if (I)
        Out += ',';
      appendU64(Vals[I]);
    }
    Out += "] blob=";
    if (Blob.data() == nullptr) {
      Out += '-';
    } else {
      for (char C : Blob)
        appendHexByte(static_cast<uint8_t>(C));
    }
    Out += '\n';
    return Code;
  }

  // BLOCKINFO: print its records (never DEFINE_ABBREV), then let LLVM parse
  // it with ReadBlockInfoBlock and install the result as the new table.
  void handleBlockInfo() {
    const uint64_t Start = Stream.GetCurrentBitNo(); // just after the block id

    // Abbrevs visible inside this BLOCKINFO block: those the *previous* table
    // defines for block id 0. DEFINE_ABBREVs inside BLOCKINFO are moved into
    // the new table by ReadBlockInfoBlock, so records here can never use
    // them; enforce the same limit (LLVM: "Invalid abbrev number").
    size_t Visible = 0;
    if (const BitstreamBlockInfo::BlockInfo *BI =
            BlockInfo.getBlockInfo(bitc::BLOCKINFO_BLOCK_ID))
      Visible = BI->Abbrevs.size();

    // Pass 1: print. Mirrors ReadBlockInfoBlock's loop and checks so that an
    // error is reported at the same place the walk stops.
    unsigned NumWords = 0;
    if (Error E = Stream.EnterSubBlock(bitc::BLOCKINFO_BLOCK_ID, &NumWords))
      fail(std::move(E));
    printEnter(bitc::BLOCKINFO_BLOCK_ID, NumWords);
    bool HaveBID = false;
    while (true) {
      // Nested blocks inside BLOCKINFO are skipped, as in ReadBlockInfoBlock.
      Expected<BitstreamEntry> MaybeEntry = Stream.advanceSkippingSubblocks(
          BitstreamCursor::AF_DontAutoprocessAbbrevs);
      if (!MaybeEntry)
        fail(MaybeEntry.takeError());
      BitstreamEntry Entry = MaybeEntry.get();
      if (Entry.Kind == BitstreamEntry::EndBlock) {
        Out += "exit\n";
        break;
      }
      if (Entry.Kind != BitstreamEntry::Record)
        fail("Malformed BlockInfoBlock: unexpected end of stream");
      if (Entry.ID == bitc::DEFINE_ABBREV) {
        if (!HaveBID)
          fail("Malformed BlockInfoBlock: DEFINE_ABBREV before SETBID");
        if (Error E = Stream.ReadAbbrevRecord())
          fail(std::move(E));
        continue;
      }
      if (Entry.ID >= bitc::FIRST_APPLICATION_ABBREV &&
          Entry.ID - bitc::FIRST_APPLICATION_ABBREV >= Visible)
        fail("Invalid abbrev number");
      unsigned Code = readAndPrintRecord(Entry.ID);
      switch (Code) {
      case bitc::BLOCKINFO_CODE_SETBID:
        if (Vals.empty())
          fail("Malformed BlockInfoBlock: SETBID without a block id");
        HaveBID = true;
        break;
      case bitc::BLOCKINFO_CODE_BLOCKNAME:
      case bitc::BLOCKINFO_CODE_SETRECORDNAME:
        if (!HaveBID)
          fail("Malformed BlockInfoBlock: name record before SETBID");
        break;
      default:
        break;
      }
    }
    const uint64_t End = Stream.GetCurrentBitNo();

    // Pass 2: the real thing, from the same position and with the same
    // (previous) blockinfo table in effect.
    if (Error E = Stream.JumpToBit(Start))
      fail(std::move(E));
    Expected<Optional<BitstreamBlockInfo>> MaybeNew =
        Stream.ReadBlockInfoBlock(/*ReadBlockInfoNames=*/false);
    if (!MaybeNew)
      fail(MaybeNew.takeError());
    if (!MaybeNew.get())
      fail("Malformed BlockInfoBlock");
    BlockInfo = std::move(*MaybeNew.get()); // replace, never merge
    if (Stream.GetCurrentBitNo() != End)
      fail("internal: BLOCKINFO re-read ended at a different position");
  }
};

} // namespace

int main(int argc, char **argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s FILE\n", argv[0]);
    return 2;
  }
  install_fatal_error_handler(fatalHandler, nullptr);

  ErrorOr<std::unique_ptr<MemoryBuffer>> MaybeBuf = MemoryBuffer::getFile(
      argv[1], /*IsText=*/false, /*RequiresNullTerminator=*/false);
  if (!MaybeBuf) {
    std::fprintf(stderr, "%s: cannot read %s: %s\n", argv[0], argv[1],
                 MaybeBuf.getError().message().c_str());
    return 2;
  }
  const MemoryBuffer &Buf = **MaybeBuf;
  const uint8_t *Data = reinterpret_cast<const uint8_t *>(Buf.getBufferStart());
  const size_t FileSize = Buf.getBufferSize();

  const uint8_t *Begin = Data;
  size_t StreamSize = FileSize;

  // Bitcode wrapper header: 5 little-endian u32 fields
  // (magic 0x0B17C0DE, version, offset, size, cputype).
  if (FileSize >= 4 && Data[0] == 0xDE && Data[1] == 0xC0 && Data[2] == 0x17 &&
      Data[3] == 0x0B) {
    if (FileSize < 20)
      fail("invalid bitcode wrapper header: file shorter than 20 bytes");
    const uint32_t Version = readLE32(Data + 4);
    const uint32_t Offset = readLE32(Data + 8);
    const uint32_t Size = readLE32(Data + 12);
    const uint32_t CpuType = readLE32(Data + 16);
    Out += "wrapper version=" + std::to_string(Version) +
           " offset=" + std::to_string(Offset) +
           " size=" + std::to_string(Size) +
           " cputype=" + std::to_string(CpuType) + "\n";
    if (uint64_t(Offset) + uint64_t(Size) > FileSize)
      fail("invalid bitcode wrapper header: offset+size past end of file");
    Begin = Data + Offset;
    StreamSize = Size;
  }

  if (StreamSize < 4)
    fail("stream too short: missing 4-byte magic");
  Out += "magic ";
  for (int I = 0; I < 4; ++I) {
    if (I)
      Out += ' ';
    appendHexByte(Begin[I]);
  }
  Out += '\n';

  Walker W(ArrayRef<uint8_t>(Begin, StreamSize));
  W.run();
  flushOut();
  return 0;
}
