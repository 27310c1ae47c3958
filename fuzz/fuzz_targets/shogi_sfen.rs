//! SFEN lines (with `moves`, `position startpos …`): read through the library, legal moves,
//! written back; never panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tabiya_shogi::{Encoding, Format, board, records};

fuzz_target!(|data: &[u8]| {
    if let Ok(file) = records::parse(data, Format::Sfen, None) {
        for kifu in &file.records {
            let _ = board::legal_moves(&kifu.start);
            let _ = board::is_mate(&kifu.start);
        }
        let _ = records::write(&file.records, Format::Sfen, Encoding::Utf8);
    }
});
