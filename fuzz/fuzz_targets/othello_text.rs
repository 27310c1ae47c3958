#![no_main]
//! Transcript and GGF readers on any text.

use libfuzzer_sys::fuzz_target;
use tabiya_othello::text::{ggf, transcript};

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    for (_, game) in transcript::parse(&text) {
        if let Ok(moves) = game {
            let _ = transcript::format(&moves);
        }
    }
    for game in ggf::parse(&text).flatten() {
        let _ = game.format();
    }
});
