// Scratch (not committed): dumps everything PgnReader reads, to compare before/after.
use std::io::Write;
use tabiya_chess::pgn::{PgnReader, ReadOptions};
use tabiya_io::corpus::Xorshift;

fn dump(out: &mut impl Write, bytes: &[u8]) {
    for (variations, comments, max_plies) in [(true, true, None), (false, false, Some(7))] {
        let options = ReadOptions { variations, comments, max_plies, file: None };
        for item in PgnReader::from_bytes(bytes, options.clone()) {
            writeln!(out, "{item:?}").unwrap();
        }
        writeln!(out, "--- new").unwrap();
        for item in PgnReader::with_options(bytes, options) {
            writeln!(out, "{item:?}").unwrap();
        }
    }
}

fn main() {
    let mut out = std::io::BufWriter::new(std::fs::File::create(std::env::args().nth(1).unwrap()).unwrap());
    for path in std::env::args().skip(2) {
        let bytes = std::fs::read(&path).unwrap();
        writeln!(out, "=== {path}").unwrap();
        dump(&mut out, &bytes);
        if bytes.len() > 3_000_000 {
            continue;
        }
        let mut rng = Xorshift::new(7);
        for round in 0..30 {
            let mut copy = bytes.clone();
            if round % 3 == 0 {
                copy.truncate(rng.below(copy.len() + 1));
            } else {
                for _ in 0..(1 + rng.below(20)) {
                    let i = rng.below(copy.len().max(1));
                    if let Some(b) = copy.get_mut(i) {
                        *b = b"{}()[]\n\r \",;%$!?.-01NBRQKx=+#@abcdefgh12345678\\*\xc2\xbd"[rng.below(50)];
                    }
                }
            }
            writeln!(out, "=== {path} round {round}").unwrap();
            dump(&mut out, &copy);
        }
    }
}
