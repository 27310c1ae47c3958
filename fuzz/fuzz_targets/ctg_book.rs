//! CTG books from arbitrary bytes: the first two bytes give the .cto length, the next two the
//! .ctb length, the following bytes are the .cto, the .ctb and the .ctg in that order. Opening,
//! probing, dumping, converting and verifying must return, never panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use shakmaty::Chess;
use tabiya_chess::ctg::{Book, Weights, dump, read_model, verify};

fuzz_target!(|data: &[u8]| {
    let Some((lens, rest)) = data.split_first_chunk::<4>() else { return };
    let cto_len = usize::from(u16::from_be_bytes([lens[0], lens[1]])).min(rest.len());
    let (cto, rest) = rest.split_at(cto_len);
    let ctb_len = usize::from(u16::from_be_bytes([lens[2], lens[3]])).min(rest.len());
    let (ctb, ctg) = rest.split_at(ctb_len);
    for index in [Some((cto, ctb)), None] {
        if let Ok(book) = Book::from_bytes(ctg.to_vec(), index) {
            let _ = book.probe_report(&Chess::default(), Weights::Play);
            let _ = dump(&book);
            let _ = read_model(&book, Weights::Play).map(|(model, _)| tabiya_chess::polyglot::entries_of_model(model));
            let _ = verify(&book);
        }
    }
});
