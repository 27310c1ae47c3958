#![no_main]
//! The .pzz reader on any bytes.

use libfuzzer_sys::fuzz_target;
use tabiya_io::Diagnostic;
use tabiya_othello::wthor::SolitaireFile;

fuzz_target!(|data: &[u8]| {
    if let Ok(file) = SolitaireFile::read(data, &mut Vec::<Diagnostic>::new()) {
        for s in &file.solitaires {
            let _ = s.discs();
        }
    }
});
