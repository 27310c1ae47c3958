#![no_main]
//! .wtb and .wtd readers on any bytes.

use libfuzzer_sys::fuzz_target;
use tabiya_io::Warnings;
use tabiya_othello::wthor::{GameFile, GameFile10};

fuzz_target!(|data: &[u8]| {
    let mut warnings = Warnings::default();
    if let Ok(file) = GameFile::read(data, &mut warnings) {
        let _ = file.to_bytes();
    }
    let _ = GameFile10::read(data, &mut warnings);
});
