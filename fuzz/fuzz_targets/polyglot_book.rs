//! Polyglot books from arbitrary bytes: reading, verifying, probing the start position,
//! decoding every move and merging must return, never panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use shakmaty::Chess;
use tabiya_chess::polyglot::{self, MergeRule};

fuzz_target!(|data: &[u8]| {
    let Ok(entries) = polyglot::read_entries(data, None) else { return };
    let _ = polyglot::verify(&entries);
    let _ = polyglot::probe_report("fuzz.bin".as_ref(), &entries, &Chess::default());
    for entry in &entries {
        let _ = polyglot::decode_move(entry.raw_move, &Chess::default());
    }
    let _ = polyglot::merge(&entries, &entries, MergeRule::SumWeights);
});
