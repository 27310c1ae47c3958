#![no_main]
//! The .pzz reader on any bytes.

use libfuzzer_sys::fuzz_target;
use tabiya_io::Warnings;
use tabiya_othello::wthor::SolitaireFile;

fuzz_target!(|data: &[u8]| {
    if let Ok(file) = SolitaireFile::read(data, &mut Warnings::default()) {
        for s in &file.solitaires {
            let _ = s.discs();
        }
    }
});
