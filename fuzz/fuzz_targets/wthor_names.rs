#![no_main]
//! WTHOR.JOU and WTHOR.TRN readers on any bytes.

use libfuzzer_sys::fuzz_target;
use tabiya_io::Diagnostic;
use tabiya_othello::wthor::{NameFile, NameKind};

fuzz_target!(|data: &[u8]| {
    for kind in [NameKind::Players, NameKind::Tournaments] {
        if let Ok(file) = NameFile::read(kind, data, &mut Vec::<Diagnostic>::new()) {
            let _ = file.names().count();
        }
    }
});
