//! CSA text: read and write back; never panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tabiya_shogi::notation::csa;

fuzz_target!(|data: &[u8]| {
    if let Ok(records) = csa::read(&String::from_utf8_lossy(data)) {
        let _ = csa::write(&records, true);
    }
});
