//! Prints the optimization remarks of an LLVM bitstream remarks file, one line each
//! (`clang -Rpass`-like: location, pass, name, function, message), then the same
//! remarks as the YAML `llvm-remarkutil bitstream2yaml` writes, for the first one.
//!
//! ```text
//! cargo run --example remarks -- [FILE.opt.bitstream]
//! ```
//!
//! One entry: [`RemarksFile::parse`], then [`RemarksFile::remarks`] (a file whose strings
//! are elsewhere says where; [`RemarksFile::combine`] reads the separate layout).

use std::process::ExitCode;

use llvm_bitstream_reader::remarks::{RemarksFile, yaml};

fn main() -> ExitCode {
    let path = std::env::args().nth(1).unwrap_or_else(|| {
        concat!(env!("CARGO_MANIFEST_DIR"), "/testdata/llvm19_remarks_standalone.opt.bitstream").to_owned()
    });
    let bytes = match std::fs::read(&path) {
        Ok(bytes) => bytes,
        Err(e) => {
            eprintln!("{path}: {e}");
            return ExitCode::FAILURE;
        }
    };
    let remarks = match RemarksFile::parse(&bytes).and_then(|file| file.remarks()) {
        Ok(remarks) => remarks,
        Err(e) => {
            eprintln!("{path}: {e}");
            return ExitCode::FAILURE;
        }
    };
    let (mut count, mut first_yaml) = (0, None);
    // The owned `Iterator`; `next_remark` lends each remark instead, without allocating.
    for remark in remarks {
        let remark = match remark {
            Ok(remark) => remark,
            Err(e) => {
                eprintln!("{path}: {e}");
                return ExitCode::FAILURE;
            }
        };
        let at = remark.loc.map(|l| l.to_string()).unwrap_or_default();
        println!(
            "{at}: {:<8} {}/{} in {}: {}",
            remark.remark_type,
            remark.pass,
            remark.name,
            remark.function,
            remark.message()
        );
        if first_yaml.is_none() {
            let mut out = Vec::new();
            yaml::write_remark(&remark, &mut out);
            first_yaml = Some(out);
        }
        count += 1;
    }
    println!("{count} remarks");
    if let Some(yaml) = first_yaml {
        print!("\nThe first as llvm-remarkutil writes it:\n{}", String::from_utf8_lossy(&yaml));
    }
    ExitCode::SUCCESS
}
