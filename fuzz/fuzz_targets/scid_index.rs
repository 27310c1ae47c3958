#![no_main]
//! .si3, .si4 and .si5 index readers on any bytes.

use libfuzzer_sys::fuzz_target;
use tabiya_chess::scid::Version;
use tabiya_chess::scid::index::Index;

fuzz_target!(|data: &[u8]| {
    for version in [Version::Scid3, Version::Scid4, Version::Scid5] {
        let _ = Index::read(data, version, &mut Vec::new());
    }
});
