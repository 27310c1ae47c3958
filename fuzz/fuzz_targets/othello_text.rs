#![no_main]
//! Transcript and GGF readers on any text, and every text line the game model writes from them.

use libfuzzer_sys::fuzz_target;
use tabiya_othello::Format;
use tabiya_othello::game::{Game, TextExport};
use tabiya_othello::text::{ggf, transcript};

const LINES: [Format; 5] = [Format::Transcript, Format::Ggf, Format::Obf, Format::JsonLines, Format::Csv];

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    for (_, game) in transcript::parse(&text) {
        if let Ok(moves) = game {
            let _ = transcript::format(&moves);
            let game = Game::from_transcript(moves);
            for format in LINES {
                let _ = game.line(format, 20);
            }
        }
    }
    for game in ggf::parse(&text).flatten() {
        let _ = game.format();
        if let Some(game) = Game::from_ggf(game) {
            for format in LINES {
                let _ = game.line(format, 20);
            }
        }
    }
});
