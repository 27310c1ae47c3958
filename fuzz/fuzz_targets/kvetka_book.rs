//! Kvetka books from arbitrary bytes: the first two bytes give the .kin length, the next two
//! the .ksf length, then come the .kin, the .ksf and the .kob stream (one part). Opening,
//! reading every block, probing, verifying and converting must return, never panic.
#![no_main]

use std::path::PathBuf;

use libfuzzer_sys::fuzz_target;
use shakmaty::Chess;
use tabiya_chess::kvetka::{BookBytes, BookFiles, BookReader, convert, probe, read_whole};
use tabiya_io::FileBytes;
use tabiya_io::report::Verification;

fuzz_target!(|data: &[u8]| {
    let Some((lens, rest)) = data.split_first_chunk::<4>() else { return };
    let kin_len = usize::from(u16::from_be_bytes([lens[0], lens[1]])).min(rest.len());
    let (kin, rest) = rest.split_at(kin_len);
    let ksf_len = usize::from(u16::from_be_bytes([lens[2], lens[3]])).min(rest.len());
    let (ksf, kob) = rest.split_at(ksf_len);
    let bytes = || BookBytes {
        files: BookFiles::new(&PathBuf::from("fuzz")),
        parts: vec![(PathBuf::from("fuzz_0.kob"), FileBytes::Owned(kob.to_vec()))],
        kin: (!kin.is_empty()).then(|| FileBytes::Owned(kin.to_vec())),
        ksf: (!ksf.is_empty()).then(|| FileBytes::Owned(ksf.to_vec())),
    };
    if let Ok(reader) = BookReader::from_bytes(bytes(), Default::default()) {
        let _ = probe::probe_report(&reader, &Chess::default());
        if let Ok(opened) = read_whole(reader) {
            let _ = tabiya_chess::polyglot::entries_of_model(convert::read_model(&opened.book).0);
            tabiya_chess::kvetka::check(&opened, &mut Verification::new("fuzz".as_ref(), "kvetka"));
            for e in opened.book.elements() {
                let _ = convert::element_json(e);
            }
        }
    }
});
