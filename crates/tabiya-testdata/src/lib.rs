//! Test support for the tabiya crates, a development dependency only: finding the shared test
//! corpus (the directory in `TABIYA_CORPUS`) and a replayable generator for damaged inputs.
//!
//! Unset, a corpus test does not run: it returns at once, and writes its name to the file named
//! by `TABIYA_SKIPS_FILE` when that is set, so that the test command (`scripts/test`) says how
//! many tests did not run instead of counting them as passes. Set, a missing file fails it.

use std::path::PathBuf;

pub mod kill;

/// The corpus file at `relative` (e.g. `"polyglot/performance.bin"`), or `None` when
/// `TABIYA_CORPUS` is unset. Panics when the variable is set and the file is missing, so a
/// moved corpus fails the tests instead of skipping them.
pub fn corpus_file(relative: &str) -> Option<PathBuf> {
    let Some(dir) = std::env::var_os("TABIYA_CORPUS") else {
        eprintln!("not run: TABIYA_CORPUS is not set (needs {relative})");
        record_not_run(relative);
        return None;
    };
    let path = PathBuf::from(dir).join(relative);
    assert!(path.exists(), "TABIYA_CORPUS is set but {} does not exist", path.display());
    Some(path)
}

/// Appends `test name: needs relative` to the file in `TABIYA_SKIPS_FILE`, if set. libtest
/// names each test's thread after the test.
fn record_not_run(relative: &str) {
    use std::io::Write;
    let Some(list) = std::env::var_os("TABIYA_SKIPS_FILE") else { return };
    let test = std::thread::current().name().unwrap_or("?").to_owned();
    let line = format!("{test}: needs {relative}\n");
    // One write of one short line in append mode: lines of parallel tests do not mix.
    let appended = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&list)
        .and_then(|mut f| f.write_all(line.as_bytes()));
    assert!(appended.is_ok(), "cannot record a test that did not run in {}", std::path::Path::new(&list).display());
}

/// A small deterministic generator (xorshift64) for the damaged-input tests every reader has:
/// the same seed gives the same damage, so a failure can be replayed.
#[derive(Debug, Clone)]
pub struct Xorshift(u64);

impl Xorshift {
    /// A zero state would stay zero, so the lowest bit is always set.
    pub fn new(seed: u64) -> Xorshift {
        Xorshift(seed | 1)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// A number in `0..n` (0 when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n.max(1) as u64) as usize
    }
}

#[cfg(test)]
mod tests {
    use super::Xorshift;

    #[test]
    fn xorshift_is_marsaglias_64_bit_generator() {
        // Marsaglia's xorshift64 (13, 7, 17) from state 1: the first outputs, worked by hand.
        let mut rng = Xorshift::new(1);
        assert_eq!(rng.next_u64(), 0x4082_2041);
        assert_eq!(rng.next_u64(), 0x1000_4106_0C01_1441);
        assert_eq!(Xorshift::new(0).next_u64(), Xorshift::new(1).next_u64());
        assert_eq!(rng.below(0), 0);
    }
}
