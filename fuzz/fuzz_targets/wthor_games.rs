#![no_main]
//! .wtb and .wtd readers and verifiers on any bytes (the 10×10 replay included).

use libfuzzer_sys::fuzz_target;
use tabiya_io::Diagnostic;
use tabiya_othello::wthor::{GameFile, GameFile10, verify_games_10};

fuzz_target!(|data: &[u8]| {
    let mut warnings: Vec<Diagnostic> = Vec::new();
    if let Ok(file) = GameFile::read(data, &mut warnings) {
        let _ = file.to_bytes();
    }
    let _ = GameFile10::read(data, &mut warnings);
    let _ = verify_games_10(std::path::Path::new("WTH_2026.wtd"), data, None);
});
