#![no_main]
//! The game-record decoder (.sg3/.sg4/.sg5) on any bytes, standard and Chess960.

use libfuzzer_sys::fuzz_target;
use tabiya_chess::scid::decode::decode_record;
use tabiya_io::Warnings;

fuzz_target!(|data: &[u8]| {
    for chess960 in [false, true] {
        let _ = decode_record(data, 0, chess960, &mut Warnings::default());
    }
});
