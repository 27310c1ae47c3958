//! `.rem` comments: read, split into colour spans, write back; never panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tabiya_shogi::tbase::{read_comments, write_comments};

fuzz_target!(|data: &[u8]| {
    let (comments, _) = read_comments(data);
    for comment in &comments {
        let _ = comment.spans();
    }
    let _ = write_comments(&comments);
});
