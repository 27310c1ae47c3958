//! `.dia` records: decode, check, re-encode and replay a fixed line; never panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tabiya_shogi::tbase::{Solution, dia_records};
use tabiya_shogi::tsume::check_solution;

fuzz_target!(|data: &[u8]| {
    let line = ["73銀", "同金", "94桂", "同馬"].map(String::from).to_vec();
    let solution = Solution { number: 3, moves: line, length: Some(17), location: Default::default() };
    for record in dia_records(data).flatten() {
        let diagram = record.diagram;
        let _ = diagram.encode();
        let _ = diagram.sfen();
        let _ = check_solution(&diagram, &solution);
    }
});
