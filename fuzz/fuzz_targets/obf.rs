#![no_main]
//! The OBF reader on any text; what it reads writes back and reads again the same.

use libfuzzer_sys::fuzz_target;
use tabiya_othello::text::obf;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    for (_, line) in obf::parse(text) {
        if let Ok(line) = line {
            let again = obf::parse_line(&obf::format_line(&line.position, &line.scores), 1);
            assert_eq!(again.ok(), Some(line));
        }
    }
});
