//! Serializes every event of a file as JSON lines, with the `serde` feature.
//!
//! ```text
//! cargo run --features serde --example serde_json -- [FILE]
//! ```
//!
//! Events, records (`{code, abbrev_id, block_id, bit, end_bit, operands, blob}`) and
//! bookmarks implement `serde::Serialize`; a [`RecordRef`](llvm_bitstream_reader::RecordRef)
//! from the fastest walk, [`Reader::next_ref`](llvm_bitstream_reader::Reader::next_ref),
//! serializes as the owned `Record` does. The output is written as it is read: on a
//! damaged file the lines before the error come first.

use std::io::{self, BufWriter, Write};
use std::process::ExitCode;

use llvm_bitstream_reader::BitstreamFile;

fn run(path: &str) -> Result<(), Box<dyn std::error::Error>> {
    let file = BitstreamFile::open(path)?;
    let stream = file.bitstream()?;
    let stdout = io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    let mut reader = stream.reader();
    while let Some(event) = reader.next_ref()? {
        // One object per line, tagged by what it is: {"EnterBlock": …}, {"Record": …}, …
        serde_json::to_writer(&mut out, &event)?;
        out.write_all(b"\n")?;
    }
    out.flush()?;
    Ok(())
}

fn main() -> ExitCode {
    let path = std::env::args()
        .nth(1)
        .unwrap_or_else(|| concat!(env!("CARGO_MANIFEST_DIR"), "/testdata/llvm14_ir_globals.bc").into());
    match run(&path) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("serde_json: {e}");
            ExitCode::FAILURE
        }
    }
}
