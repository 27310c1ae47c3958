//! The OBF reader on damaged copies of the FFO suite files: truncations and byte flips give
//! a line or an error with its record and offset, never a panic; good lines write back the same.

use tabiya_othello::text::obf;
use tabiya_testdata::{Xorshift, corpus_file};

#[test]
fn damaged_obf_files_never_panic() {
    let Some(path) = corpus_file("ffo/fforum-40-59.obf") else {
        eprintln!("skipped: TABIYA_CORPUS not set");
        return;
    };
    let original = std::fs::read(path).unwrap();
    let text = String::from_utf8(original.clone()).unwrap();
    let (good, bad) = obf::parse(&text).fold((0, 0), |(g, b), (_, l)| if l.is_ok() { (g + 1, b) } else { (g, b + 1) });
    assert_eq!((good, bad), (20, 0));
    let mut rng = Xorshift::new(0x2545_f491_4f6c_dd1d);
    let mut next = move || rng.next_u64();
    let mut errors = 0;
    for round in 0..2000 {
        let mut bytes = original.clone();
        if round % 4 == 0 {
            bytes.truncate(next() as usize % bytes.len());
        } else {
            for _ in 0..1 + round % 3 {
                let at = next() as usize % bytes.len();
                bytes[at] = next() as u8;
            }
        }
        let text = String::from_utf8_lossy(&bytes);
        for (number, line) in obf::parse(&text) {
            match line {
                Ok(line) => {
                    let written = obf::format_line(&line.position, &line.scores);
                    assert_eq!(obf::parse_line(&written, number).ok(), Some(line));
                }
                Err(e) => {
                    errors += 1;
                    assert_eq!(e.location.number, Some(number));
                    assert!(e.location.offset.is_some_and(|o| o < text.len() as u64 + 1));
                }
            }
        }
    }
    assert!(errors > 500, "the mutations reach the error paths ({errors})");
}
