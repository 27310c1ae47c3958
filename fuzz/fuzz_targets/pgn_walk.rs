//! The PGN walk from arbitrary bytes: walking every game, with and without a ply limit, and
//! reading every tag must return, never panic.
#![no_main]

use std::ops::ControlFlow;

use libfuzzer_sys::fuzz_target;
use tabiya_chess::pgn::{PgnWalk, WalkOptions};

fuzz_target!(|data: &[u8]| {
    for max_plies in [u32::MAX, 3] {
        for mut game in PgnWalk::new(data, WalkOptions { max_plies, file: None }).flatten() {
            let _ = game.tags().count();
            let _ = game.play(|_, _| ControlFlow::Continue(()));
        }
    }
});
