//! Chess tree files from arbitrary bytes (a tree is read from a memory map, so the bytes go to a
//! file first): opening, probing the start position, verifying, dumping every record and
//! turning it into a book must return, never panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use shakmaty::Chess;
use tabiya_chess::tree::Tree;

fuzz_target!(|data: &[u8]| {
    let path = std::env::temp_dir().join(format!("tabiya-fuzz-{}.tree", std::process::id()));
    if std::fs::write(&path, data).is_err() {
        return;
    }
    if let Ok(tree) = Tree::open(&path) {
        let _ = tree.probe(&Chess::default());
        let _ = tree.verify();
        let _ = tree.dump(&mut std::io::sink());
        let _ = tree.to_book();
    }
});
