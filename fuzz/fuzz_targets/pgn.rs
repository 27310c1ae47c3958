//! PGN from arbitrary bytes: reading every game (and writing back what was read) must return,
//! never panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tabiya_chess::pgn::{PgnReader, ReadOptions, WriterOptions, write_game};

fuzz_target!(|data: &[u8]| {
    for item in PgnReader::from_bytes(data, ReadOptions::default()) {
        if let Ok(read) = item {
            let mut out = Vec::new();
            let _ = write_game(&read.game, &WriterOptions::default(), &mut out);
        }
    }
});
