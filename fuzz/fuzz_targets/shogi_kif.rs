//! KIF and KI2 records (any encoding): read through the library (encoding detection included), verified, written in
//! every record format; never panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tabiya_io::Location;
use tabiya_shogi::{Encoding, Format, records};

fuzz_target!(|data: &[u8]| {
    if let Ok(file) = records::parse(data, Format::Kif, None) {
        for kifu in &file.records {
            let _ = kifu.check(Format::Kif, Location::default());
        }
        for to in [Format::Kif, Format::Ki2, Format::Csa, Format::Sfen, Format::JsonLines] {
            let _ = records::write(&file.records, to, Encoding::ShiftJis);
        }
    }
});
