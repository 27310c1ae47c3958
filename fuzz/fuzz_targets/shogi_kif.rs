//! KIF and KI2 text: read and write back; never panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tabiya_shogi::notation::kif::{self, Flavour};

fuzz_target!(|data: &[u8]| {
    if let Ok(kifu) = kif::read(&String::from_utf8_lossy(data)) {
        let _ = kif::write(&kifu, Flavour::Kif);
        let _ = kif::write(&kifu, Flavour::Ki2);
    }
});
