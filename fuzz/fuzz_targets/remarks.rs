#![no_main]
//! Raw bytes read as a bitstream remarks container (the magic forced to `RMRK`): the META
//! block(s), every remark, the YAML of each; as a separate layout too (the input's own
//! string table, or none).

use libfuzzer_sys::fuzz_target;
use llvm_bitstream_reader::remarks::{RemarksFile, StringTable, yaml};

fuzz_target!(|data: &[u8]| {
    let mut bytes = b"RMRK".to_vec();
    bytes.extend_from_slice(data.get(4..).unwrap_or_default());
    let Ok(file) = RemarksFile::parse(&bytes) else { return };
    let table = file.meta().string_table.clone().unwrap_or_else(|| StringTable::new(data));
    let mut out = Vec::new();
    for remarks in [file.remarks(), file.remarks_with(table), RemarksFile::combine(&file, &file)] {
        let Ok(mut remarks) = remarks else { continue };
        while let Ok(Some(remark)) = remarks.next_remark() {
            out.clear();
            yaml::write_remark(remark, &mut out);
            assert!(out.starts_with(b"---") && out.ends_with(b"\n...\n"));
        }
    }
});
