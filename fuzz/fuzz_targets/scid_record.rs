#![no_main]
//! The game-record decoder (.sg3/.sg4/.sg5) on any bytes, standard and Chess960, with and
//! without the SAN of the moves.

use libfuzzer_sys::fuzz_target;
use tabiya_chess::scid::decode::{decode_record, decode_record_with_san};

fuzz_target!(|data: &[u8]| {
    for chess960 in [false, true] {
        let record = decode_record(data, 0, chess960, &mut Vec::new());
        // The export's decoding (with each move's SAN) gives the same record or the same error.
        let with_san = decode_record_with_san(data, 0, chess960, &mut Vec::new());
        assert_eq!(format!("{record:?}"), format!("{:?}", with_san.map(|(record, _)| record)));
    }
});
