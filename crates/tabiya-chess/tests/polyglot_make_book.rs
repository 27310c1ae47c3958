//! Books built from the medium PGN file against what Polyglot 2.0.4 (Debian `polyglot`) wrote
//! for the same games and options, and merges against `polyglot merge-book`. The expected
//! values are the entry count and FNV-1a 64 digest of Polyglot's own output files, made with
//! `polyglot make-book -pgn medium-pgnmentor-12players.pgn -bin X.bin OPTIONS` and
//! `polyglot merge-book -in1 A.bin -in2 B.bin -out X.bin`.

use shakmaty::Color;
use tabiya_chess::book::{Book, BookBuilder, BuildOptions, EloFilter, build_from_pgn, build_from_pgn_in_ranges};
use tabiya_chess::pgn::{PgnReader, ReadOptions};
use tabiya_chess::polyglot::{
    Entry, MakeOptions, MergeRule, entries_from_book, entries_from_range, merge, write_entries,
};
use tabiya_testdata::corpus_file;

fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf29ce484222325, |h, &b| (h ^ u64::from(b)).wrapping_mul(0x100000001b3))
}

/// (entries, digest) of the book file the entries make.
fn fingerprint(entries: &[Entry]) -> (usize, u64) {
    let mut bytes = Vec::new();
    write_entries(entries, &mut bytes).unwrap();
    (entries.len(), fnv1a(&bytes))
}

fn make(min_games: u32, min_score: f64, only: Option<Color>, uniform: bool) -> MakeOptions {
    MakeOptions { min_games, min_score, only, uniform }
}

#[test]
fn books_equal_polyglot_make_book() {
    let Some(path) = corpus_file("pgn/medium-pgnmentor-12players.pgn") else { return eprintln!("skipped") };
    let bytes = std::fs::read(&path).unwrap();
    let mut full = BookBuilder::new(BuildOptions::default());
    let options = ReadOptions { variations: false, comments: false, ..ReadOptions::default() };
    for item in PgnReader::from_bytes(&bytes, options) {
        full.add_game(&item.unwrap().game);
    }
    assert_eq!(full.summary().games_added, 31_990);
    // The first 40 plies through the parallel path: the file cut in 3 pieces, read apart,
    // the builders merged; keys and moves only, as `tabiya book` builds Polyglot books.
    let keys_only = BuildOptions { max_ply: 40, keep_positions: false, ..BuildOptions::default() };
    let first_40 = build_from_pgn(&bytes, &keys_only, Some(3));
    assert_eq!((first_40.summary.games_added, first_40.unreadable, first_40.warnings), (31_990, 0, 0));
    // As `tabiya book` makes them: entries range by range, the book never whole.
    let by_range = |range: &mut Book| entries_from_range(range, &make(1, 0.0, None, false));
    let first_40_runs = build_from_pgn_in_ranges(&bytes, &keys_only, Some(3), by_range).book.concat();
    let (full, first_40): (Book, Book) = (full.finish(), first_40.book);
    // The notes: 760,688 (position, move) pairs in the first 40 plies.
    assert_eq!(first_40.move_count(), 760_688);
    // Every position kept is the one its key names.
    for position in full.positions().step_by(97) {
        assert_eq!(tabiya_chess::polyglot::key(&position.position().unwrap()), position.key);
    }

    // -max-ply 40 -min-game 1
    assert_eq!(fingerprint(&entries_from_book(&first_40, &make(1, 0.0, None, false))), (522_436, 0xb0b1ad7febbd5bbd));
    assert_eq!(fingerprint(&first_40_runs), (522_436, 0xb0b1ad7febbd5bbd));
    // no options (-min-game 3)
    let defaults = entries_from_book(&full, &MakeOptions::default());
    assert_eq!(fingerprint(&defaults), (31_854, 0xc9b14c576afb5d0b));
    // -min-game 1
    assert_eq!(fingerprint(&entries_from_book(&full, &make(1, 0.0, None, false))), (1_514_925, 0x77748483f3ca1783));
    // -max-ply 40 -only-white
    let white = entries_from_book(&first_40, &make(3, 0.0, Some(Color::White), false));
    assert_eq!(fingerprint(&white), (15_443, 0x99f5e306ad54ac08));
    // -max-ply 40 -only-black -min-score 50
    let black = entries_from_book(&first_40, &make(3, 50.0, Some(Color::Black), false));
    assert_eq!(fingerprint(&black), (7_423, 0x70add82596755561));
    // -max-ply 40 -uniform -min-game 5
    let uniform = entries_from_book(&first_40, &make(5, 0.0, None, true));
    assert_eq!(fingerprint(&uniform), (15_345, 0x67a8e39b7557a340));

    // merge-book -in1 white -in2 black; merge-book -in1 uniform -in2 defaults (weights add up)
    assert_eq!(fingerprint(&merge(&white, &black, MergeRule::SumWeights)), (22_866, 0x0676f29e9a1477bc));
    assert_eq!(fingerprint(&merge(&uniform, &defaults, MergeRule::SumWeights)), (31_854, 0xdbc3b853f38564d8));
}

#[test]
fn merge_book_rules_on_small_books() {
    // Found with polyglot merge-book 2.0.4 on hand-made books: weights of the same key and move
    // add up, the first book's learn value and move order stay, the second book's other moves
    // follow in their order.
    let e = |key, raw_move, weight, learn| Entry { key, raw_move, weight, learn };
    let first = [e(1, 0x100, 5, 7), e(1, 0x200, 3, 0)];
    let second = [e(0, 0x100, 1, 0), e(1, 0x100, 4, 9), e(1, 0x300, 10, 0), e(2, 0x100, 2, 0)];
    assert_eq!(
        merge(&first, &second, MergeRule::SumWeights),
        [e(0, 0x100, 1, 0), e(1, 0x100, 9, 7), e(1, 0x200, 3, 0), e(1, 0x300, 10, 0), e(2, 0x100, 2, 0)]
    );
    // Polyglot wraps 60000 + 60000 to 54464; tabiya stops at the largest weight.
    assert_eq!(
        merge(&[e(1, 0x100, 60000, 0)], &[e(1, 0x100, 60000, 0)], MergeRule::SumWeights),
        [e(1, 0x100, 65535, 0)]
    );
    // Polyglot 1.4's rule: the first book's position wins.
    assert_eq!(
        merge(&first, &second, MergeRule::FirstWins),
        [e(0, 0x100, 1, 0), e(1, 0x100, 5, 7), e(1, 0x200, 3, 0), e(2, 0x100, 2, 0)]
    );
}

#[test]
fn the_walk_builds_what_games_build_on_small_varied() {
    // 2,325 games with FEN starts, Chess960 games (12, left out), null moves, variations and
    // comments: the book from the PGN walk equals the book from the games PgnReader reads.
    let Some(path) = corpus_file("pgn/small-varied.pgn") else { return eprintln!("skipped") };
    let bytes = std::fs::read(&path).unwrap();
    for options in [
        BuildOptions::default(),
        BuildOptions { max_ply: 12, elo: EloFilter { weak: 2400, ..EloFilter::default() }, keep_positions: false },
    ] {
        let mut from_games = BookBuilder::new(options.clone());
        for item in PgnReader::from_bytes(&bytes, ReadOptions::default()) {
            from_games.add_game(&item.unwrap().game);
        }
        let walked = build_from_pgn(&bytes, &options, Some(2));
        assert_eq!(walked.summary, from_games.summary(), "{options:?}");
        assert_eq!(walked.summary.games_chess960, 12);
        assert_eq!(walked.summary.games_added + walked.summary.games_below_min_elo, 2_325 - 12);
        assert!(walked.book == from_games.finish(), "{options:?}");
    }
}
