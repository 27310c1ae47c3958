#![no_main]
//! .sn4 and .sn5 name-file readers on any bytes.

use libfuzzer_sys::fuzz_target;
use tabiya_chess::scid::{Header, NameBase};

fuzz_target!(|data: &[u8]| {
    let _ = NameBase::read_sn4(data, &mut Vec::new());
    let _ = NameBase::read_sn5(data, &mut Header::default(), &mut Vec::new());
});
