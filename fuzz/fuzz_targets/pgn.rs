//! PGN from arbitrary bytes: reading every game (and writing back what was read) must return,
//! never panic; streamed in small reads, the reader gives what it gives from memory.
#![no_main]

use std::io::Read;

use libfuzzer_sys::fuzz_target;
use tabiya_chess::pgn::{PgnReader, ReadOptions, WriterOptions, write_game};

/// Hands out the input a few bytes per read, the count taken from the input's first byte.
struct Trickle<'a>(&'a [u8], usize);

impl Read for Trickle<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.1.min(buf.len()).min(self.0.len());
        buf[..n].copy_from_slice(&self.0[..n]);
        self.0 = &self.0[n..];
        Ok(n)
    }
}

fuzz_target!(|data: &[u8]| {
    for item in PgnReader::from_bytes(data, ReadOptions::default()) {
        if let Ok(read) = item {
            let mut out = Vec::new();
            let _ = write_game(&read.game, &WriterOptions::default(), &mut out);
        }
    }
    let step = usize::from(data.first().copied().unwrap_or(1) % 16) + 1;
    let streamed: Vec<String> = PgnReader::new(Trickle(data, step)).map(|item| format!("{item:?}")).collect();
    let in_memory: Vec<String> = PgnReader::new(data).map(|item| format!("{item:?}")).collect();
    assert_eq!(streamed, in_memory);
});
