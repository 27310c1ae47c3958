//! `PgnReader` over a stream: games longer than its read block, comments that hold blank lines
//! and tag lines, and inputs handed out a few bytes per read give the games the text holds, at
//! the offsets where they were written.

use std::io::Read;

use tabiya_chess::pgn::{PgnReader, ReadGame};
use tabiya_testdata::Xorshift;

/// Hands out its text 1 to 4096 bytes per read.
struct Trickle<'a> {
    text: &'a [u8],
    rng: Xorshift,
}

impl Read for Trickle<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = (1 + self.rng.below(4096)).min(buf.len()).min(self.text.len());
        buf[..n].copy_from_slice(&self.text[..n]);
        self.text = &self.text[n..];
        Ok(n)
    }
}

#[test]
fn long_games_and_small_reads() {
    let mut text = Vec::new();
    let mut offsets = Vec::new();
    let mut long_comment = 0;
    for number in 0..600 {
        offsets.push(text.len() as u64);
        text.extend_from_slice(format!("[Event \"game {number}\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Nf3 ").as_bytes());
        if number % 150 == 7 {
            // A comment longer than the reader's 1 MiB block, with what would end a game
            // outside a comment.
            let comment = "a blank line\n\n[Event \"not a game\"]\n\n".repeat(30_000);
            long_comment = comment.len();
            text.extend_from_slice(format!("{{{comment}}} ").as_bytes());
        }
        text.extend_from_slice(b"1-0\n\n");
    }
    let check = |games: Vec<ReadGame>| {
        assert_eq!(games.len(), 600);
        for (number, game) in games.iter().enumerate() {
            assert_eq!(game.game.tag("Event").map(|t| t.as_bytes()), Some(format!("game {number}").as_bytes()));
            assert_eq!(game.offset, offsets[number]);
            assert_eq!(game.number, number as u64 + 1);
            assert_eq!(game.game.ply_count(), 3);
            assert!(game.diagnostics.is_empty());
            let comments = game.game.moves.nodes[2].comments();
            if number % 150 == 7 {
                assert_eq!(comments.iter().map(|c| c.len()).collect::<Vec<_>>(), [long_comment]);
            } else {
                assert!(comments.is_empty());
            }
        }
    };
    check(PgnReader::new(&text[..]).map(Result::unwrap).collect());
    for seed in 1..4 {
        check(PgnReader::new(Trickle { text: &text, rng: Xorshift::new(seed) }).map(Result::unwrap).collect());
    }
}

#[test]
fn a_failing_read_is_reported_and_ends_the_reading() {
    struct Failing(usize);
    impl Read for Failing {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            let game = b"[Event \"x\"]\n\n1. d4 d5 *\n\n";
            if self.0 >= 3 {
                return Err(std::io::Error::other("disk gone"));
            }
            self.0 += 1;
            let n = game.len().min(buf.len());
            buf[..n].copy_from_slice(&game[..n]);
            Ok(n)
        }
    }
    let items: Vec<_> = PgnReader::new(Failing(0)).collect();
    // The block being read when the input failed is given up with it.
    assert_eq!(items.len(), 1);
    let error = items[0].as_ref().unwrap_err().to_string();
    assert!(error.contains("disk gone"), "{error}");
}

/// A PGN source says how far reading it has come in bytes of its file: the compressed bytes of
/// a gzip file, against the file's size, which the last game read reaches; never more than it,
/// never backwards.
#[test]
fn reading_progress_counts_the_bytes_of_the_file() {
    use tabiya_chess::games::Source;
    use tabiya_io::Compression;

    let dir = tempfile::tempdir().unwrap();
    let mut text = Vec::new();
    for number in 0..40_000 {
        let moves = ["1. e4 e5 2. Nf3 Nc6 1-0", "1. d4 d5 2. c4 e6 0-1", "1. c4 1/2-1/2"][number % 3];
        text.extend_from_slice(
            format!("[Event \"game {number}\"]\n[Round \"{}\"]\n\n{moves}\n\n", number * 7919).as_bytes(),
        );
    }
    let plain = dir.path().join("games.pgn");
    std::fs::write(&plain, &text).unwrap();
    let gzip = dir.path().join("games.pgn.gz");
    let mut encoder = Compression::Gzip.encoder(std::fs::File::create(&gzip).unwrap()).unwrap();
    std::io::Write::write_all(&mut encoder, &text).unwrap();
    encoder.finish().unwrap();
    for path in [plain, gzip] {
        let size = std::fs::metadata(&path).unwrap().len();
        let source = Source::open(&path).unwrap();
        assert_eq!(source.bytes_read(), Some((0, 0)));
        let mut seen = Vec::new();
        source
            .read_in_parallel(
                |_| (),
                |game| {
                    game.unwrap();
                    seen.push(source.bytes_read().unwrap());
                    Ok::<(), ()>(())
                },
            )
            .unwrap();
        assert_eq!(seen.len(), 40_000);
        assert!(seen.windows(2).all(|w| w[0].0 <= w[1].0 && w[1].0 <= size), "{path:?}");
        // The plain file is read a block at a time behind the games; the small gzip file may be
        // decoded ahead whole before the first game is handed on.
        if path.extension().is_some_and(|e| e == "pgn") {
            assert!(seen.iter().any(|&(done, total)| total == size && done > 0 && done < size), "{seen:?}");
        }
        assert_eq!(source.bytes_read(), Some((size, size)), "{path:?}");
    }
}
