#![no_main]
//! Raw bytes as a file for `symbols::read` (bitcode, objects, archives, universal
//! binaries), as every `llvm-nm` version reads it and from the module records too: no
//! panic; every list is sorted in every order without panicking; every symbol that
//! borrows its name borrows it from the input; a bitcode symbol has irsymtab flags that
//! agree with its fields and no address. (The SYMTAB and the module records are not
//! compared: a mutated SYMTAB may say anything; the tests compare them on real files.)

use std::borrow::Cow;

use libfuzzer_sys::fuzz_target;
use llvm_bitstream_reader::symbols::{self, NmVersion, Options, SortOrder};

fuzz_target!(|data: &[u8]| {
    for version in [NmVersion::Llvm14, NmVersion::Llvm22] {
        let mut options = Options::new(version);
        check(data, &options);
        options.module_records = true;
        check(data, &options);
    }
});

fn check(data: &[u8], options: &Options) {
    let file = match symbols::read("fuzz", data, options) {
        Ok(file) => file,
        Err(e) => {
            let _ = e.to_string();
            return;
        }
    };
    for mut list in file.lists {
        if let Some(e) = &list.error {
            let _ = e.to_string();
        }
        for s in &list.symbols {
            if let Cow::Borrowed(name) = &s.name {
                let (input, name) = (data.as_ptr_range(), name.as_ptr_range());
                assert!(name.start == name.end || (input.start <= name.start && name.end <= input.end));
            }
            if let Some(flags) = s.ir_flags {
                assert_eq!(flags.undefined(), s.undefined);
                assert_eq!(flags.global(), s.global);
                assert!(s.address.is_none());
            }
            assert!(s.letter.is_ascii_graphic());
        }
        for order in [SortOrder::Name, SortOrder::Address, SortOrder::Size, SortOrder::None] {
            list.sort(order, order == SortOrder::Size);
        }
    }
}
