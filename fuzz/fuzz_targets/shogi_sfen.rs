//! SFEN positions: parse, legal moves, write back; never panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tabiya_shogi::board;
use tabiya_shogi::notation::sfen;

fuzz_target!(|data: &[u8]| {
    if let Ok(position) = sfen::parse(&String::from_utf8_lossy(data)) {
        let _ = board::legal_moves(&position);
        let _ = board::is_mate(&position);
        let _ = sfen::write(&position);
    }
});
