//! Chess files as other programs wrote them: what SCID 5.0.2, lichess and python-chess put in
//! their files, and what SCID 5.0.2 makes of them, against tabiya's reading and writing.
//!
//! The small files in `tests/data/` stand for real files; each test says which.

use std::path::{Path, PathBuf};

use tabiya_chess::game::Game;
use tabiya_chess::pgn::{PgnReader, WriterOptions, write_game};
use tabiya_chess::scid::export::export_pgn;
use tabiya_chess::scid::write::write_database;
use tabiya_chess::scid::{Database, Version};

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data").join(name)
}

/// FNV-1a, 64 bits: the digest pinned for the bytes SCID 5.0.2 wrote.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3))
}

fn games(pgn: &[u8]) -> Vec<Game> {
    PgnReader::from_bytes(pgn, Default::default()).map(|g| g.unwrap().game).collect()
}

/// The games written as PGN in SCID's layout.
fn scid_pgn(games: &[Game]) -> Vec<u8> {
    let mut out = Vec::new();
    for game in games {
        write_game(game, &WriterOptions::scid(), &mut out).unwrap();
    }
    out
}

/// `null-moves.pgn` stands for SCID's exports with null moves (`31.Rh3 -- 32.Qxh7+`): null
/// moves of both colours, in the main line and in variations, from the start and from a FEN
/// with Black to move. A null move counts as a ply (SCID's `Position::DoSimpleMove`), so after
/// Black passes White's move takes the next number. The digests are those of SCID 5.0.2's
/// import of the file (`import.tcl SCID4`) and its export of that database (`export.tcl`).
#[test]
fn null_moves_are_numbered_as_scid_numbers_them() {
    let pgn = std::fs::read(data("pgn/null-moves.pgn")).unwrap();
    let games = games(&pgn);
    // PGN → PGN.
    let text = scid_pgn(&games);
    assert!(text.windows(31).any(|w| w == b"1.e4 e5 2.Nf3 -- 3.Bc4 Nc6 4.--"), "{}", String::from_utf8_lossy(&text));
    assert_eq!((text.len(), fnv1a(&text)), (417, 0xd00d_6eeb_6d54_0858), "{}", String::from_utf8_lossy(&text));
    // PGN → SCID: SCID's files; → PGN again: SCID's export.
    let dir = tempfile::tempdir().unwrap();
    let si4 = dir.path().join("nulls.si4");
    let summary = write_database(&si4, Version::Scid4, games).unwrap();
    assert!(summary.diagnostics.is_empty(), "{:?}", summary.diagnostics);
    for (extension, size, digest) in
        [("si4", 276, 0x3a24_9f39_ea40_f6e5), ("sg4", 95, 0xd3c3_32f0_424c_210c), ("sn4", 113, 0x5498_7b22_2e99_7bb3)]
    {
        let bytes = std::fs::read(si4.with_extension(extension)).unwrap();
        assert_eq!((bytes.len(), fnv1a(&bytes)), (size, digest), "{extension}");
    }
    let mut exported = Vec::new();
    export_pgn(&Database::open(&si4).unwrap(), &WriterOptions::scid(), &mut exported, |_| {}).unwrap();
    assert_eq!(exported, text);
}

/// `lichess-study-from-position.pgn` stands for a chapter of a lichess study exported as PGN:
/// standard chess from a FEN is tagged `[Variant "From Position"]`.
#[test]
fn lichess_from_position_is_standard_chess() {
    let pgn = std::fs::read(data("pgn/lichess-study-from-position.pgn")).unwrap();
    let read: Vec<_> = PgnReader::from_bytes(&pgn, Default::default()).collect::<Result<_, _>>().unwrap();
    assert_eq!(read.len(), 1);
    assert!(read[0].diagnostics.is_empty(), "{:?}", read[0].diagnostics);
    let game = &read[0].game;
    assert_eq!(game.castling_mode, shakmaty::CastlingMode::Standard);
    assert_eq!(game.start.as_ref().unwrap().to_string(), "1K1k4/1P6/8/8/8/8/r7/2R5 w - - 0 1");
    assert_eq!(game.ply_count(), 5);
}

/// `unescaped-tag-quotes.pgn` stands for files of old programs (and hand edits) that put
/// quotes inside a tag value without escaping them (`[White ""Socrates Expert""]`), with CRLF
/// line ends. python-chess reads such a line as one tag whose value keeps the inner quotes;
/// so does tabiya, with a warning, and the game stays whole.
#[test]
fn unescaped_quotes_in_a_tag_value_keep_the_game_whole() {
    let pgn = std::fs::read(data("pgn/unescaped-tag-quotes.pgn")).unwrap();
    let read: Vec<_> = PgnReader::from_bytes(&pgn, Default::default()).collect::<Result<_, _>>().unwrap();
    assert_eq!(read.len(), 2);
    let first = &read[0];
    assert_eq!(first.game.tag("White").map(|t| t.as_bytes()), Some("\"Socrates Expert\"".as_bytes()));
    assert_eq!(first.game.tag("Black").map(|t| t.as_bytes()), Some("Chess Genius".as_bytes()));
    assert_eq!(first.game.tag("Result").map(|t| t.as_bytes()), Some("1-0".as_bytes()));
    assert_eq!(first.game.ply_count(), 4);
    let codes: Vec<&str> = first.diagnostics.iter().map(|d| d.code).collect();
    assert_eq!(codes, ["pgn.tag_inner_quotes"]);
    let second = &read[1];
    assert_eq!(second.game.tag("Black").map(|t| t.as_bytes()), Some("\"Socrates\" \"Expert\"".as_bytes()));
    assert_eq!(second.game.tag("Round").map(|t| t.as_bytes()), Some("2".as_bytes()));
    assert_eq!(second.game.ply_count(), 2);
    assert_eq!(second.diagnostics.len(), 1);
}

/// The corpus's antichess (2 games) and crazyhouse (1 game each) files from python-chess's
/// test data: `info` counts their games by variant, and `verify` and `convert` skip them with
/// one warning per file instead of one error per game.
#[test]
fn variant_games_are_counted_and_skipped_with_one_warning() {
    use tabiya_chess::pgn::report::{info, verify};
    for (name, variant, games) in [
        ("pgn/edge-cases/pychess-antichess-programfox.pgn", "Antichess", 2),
        ("pgn/edge-cases/pychess-crazyhouse-saturs-jannlee.pgn", "Crazyhouse", 1),
    ] {
        let Some(path) = tabiya_testdata::corpus_file(name) else { return };
        let info = info(&path, &mut |_, _| {}).unwrap();
        assert_eq!(info.counts["games"], games, "{name}");
        assert_eq!(info.counts["unreadable_games"], 0, "{name}");
        assert_eq!(info.counts["variant_games"], serde_json::json!({ variant: games }), "{name}");
        let v = verify(&path, &mut |_, _| {});
        let codes: Vec<&str> = v.problems.iter().map(|d| d.code).collect();
        assert_eq!(codes, ["pgn.variant_games_skipped"], "{name}");
        assert!(!v.problems[0].is_error());
        // convert → PGN: nothing written, one warning.
        let source = tabiya_chess::games::Source::open(&path).unwrap();
        let mut sink = tabiya_chess::games::Sink::pgn(Vec::new(), Path::new("out.pgn"), WriterOptions::default());
        let mut found = Vec::new();
        sink.add_source(&source, &mut found, |_| {}).unwrap();
        let codes: Vec<&str> = found.iter().map(|d| d.code).collect();
        assert_eq!(codes, ["pgn.variant_games_skipped"], "{name}");
        assert!(found[0].message.contains(&format!("{variant} ({games})")), "{}", found[0].message);
        assert_eq!(sink.finish(&mut found).unwrap().written, 0);
    }
}

/// `polyglot/king-move-castling.bin` stands for Polyglot books whose castling is stored as the
/// king's two-square move (`e1g1`, `e8g8`), as python-chess reads them. It was written with
/// python-chess 1.11.2's keys (`chess.polyglot.zobrist_hash`), and python-chess's
/// `open_reader(...).find_all` shows O-O for White's and Black's entries: so does `probe`, with
/// no collision warning; `verify` warns once; a rewrite keeps the bytes.
#[test]
fn polyglot_castling_as_a_king_move_is_castling() {
    use shakmaty::{Chess, Position, san::San};
    use tabiya_chess::polyglot::{probe_report, read_entries, verify, write_entries};
    let path = data("polyglot/king-move-castling.bin");
    let bytes = std::fs::read(&path).unwrap();
    let entries = read_entries(&bytes, Some(&path)).unwrap();
    for (moves, key, expected) in [
        ("e4 e5 Nf3 Nc6 Bc4 Bc5", "b663577df5f241bb", vec![("e1g1", "O-O", 10), ("d2d3", "d3", 5)]),
        ("e4 e5 Nf3 Nf6 Bc4 Bc5 O-O", "3815c05e356a7e3e", vec![("e8g8", "O-O", 7)]),
    ] {
        let mut pos = Chess::default();
        for san in moves.split(' ') {
            let m = san.parse::<San>().unwrap().to_move(&pos).unwrap();
            pos.play_unchecked(m);
        }
        let probe = probe_report(&path, &entries, &pos);
        assert_eq!(probe.position["key"], key);
        assert!(probe.problems.is_empty(), "{:?}", probe.problems);
        let found: Vec<(&str, &str, u64)> =
            probe.moves.iter().map(|m| (m.uci.as_str(), m.san.as_str(), m.weight)).collect();
        assert_eq!(found, expected);
    }
    let problems = verify(&entries);
    let codes: Vec<&str> = problems.iter().map(|d| d.code).collect();
    assert_eq!(codes, ["polyglot.king_move_castling"]);
    assert!(!problems[0].is_error());
    assert!(problems[0].message.starts_with("2 entries"), "{}", problems[0].message);
    let mut rewritten = Vec::new();
    write_entries(&entries, &mut rewritten).unwrap();
    assert_eq!(rewritten, bytes);
}

/// The database tabiya writes from the PGN file `path` (in `dir`), with what the import found.
fn import_scid4(path: &Path, dir: &Path) -> (PathBuf, Vec<tabiya_io::Diagnostic>) {
    let si4 = dir.join("out.si4");
    let source = tabiya_chess::games::Source::open(path).unwrap();
    let writer = tabiya_chess::scid::DatabaseWriter::create(&si4, Version::Scid4).unwrap();
    let mut sink = tabiya_chess::games::Sink::<std::io::Sink>::scid(writer);
    let mut found = Vec::new();
    sink.add_source(&source, &mut found, |_| {}).unwrap();
    sink.finish(&mut found).unwrap();
    (si4, found)
}

/// PGN → SCID of `pgnextract-nagcomments.pgn` (`b3 { good or bad? } $1 { … } $2 { … }`)
/// against SCID 5.0.2's import of it (`import.tcl SCID4`): SCID keeps the last move
/// assessment ($2 replaces $1, its `Game::AddNag`) and joins the comments. The digests are
/// those of SCID's .si4, .sg4 and .sn4.
#[test]
fn pgn_import_keeps_one_move_assessment_as_scid_does() {
    let Some(path) = tabiya_testdata::corpus_file("pgn/edge-cases/pgnextract-nagcomments.pgn") else { return };
    let dir = tempfile::tempdir().unwrap();
    let (si4, found) = import_scid4(&path, dir.path());
    let files = ["si4", "sg4", "sn4"].map(|extension| {
        let bytes = std::fs::read(si4.with_extension(extension)).unwrap();
        (bytes.len(), fnv1a(&bytes))
    });
    assert_eq!(files, [(229, 0x4954_7852_3cee_9e4c), (71, 0x4acb_d164_2fff_629f), (52, 0xcf5a_de86_0606_3fcf)]);
    let codes: Vec<&str> = found.iter().map(|d| d.code).collect();
    assert_eq!(codes, ["scid.replaced_nags"]);
}

/// `dirty-immortal-games-latin1-crlf.pgn` opens with `; Source of annotations: …` lines before
/// the first game's tags: SCID 5.0.2 keeps them as that game's opening comment (one comment,
/// as SCID's import of the file holds it), and so does tabiya, in the game it reads (two
/// comments) and in the SCID record it writes (SCID's one). (Game 1's record is not SCID's byte for byte: an
/// ambiguous move cuts the game, which tabiya writes with `*` and a comment where SCID keeps
/// the result; `legacy_bytes.rs` compares the records.)
#[test]
fn rest_of_line_comments_before_the_tags_open_the_game() {
    let name = "pgn/edge-cases/dirty-immortal-games-latin1-crlf.pgn";
    let Some(path) = tabiya_testdata::corpus_file(name) else { return };
    let dir = tempfile::tempdir().unwrap();
    let (si4, _) = import_scid4(&path, dir.path());
    let db = Database::open(&si4).unwrap();
    assert_eq!(db.len(), 36);
    // SCID 5.0.2's database of the file holds the two lines as one comment, trimmed and joined.
    let stored = db.read_game(0, &mut Vec::new()).unwrap();
    assert_eq!(stored.moves.comments, ["Source of annotations:http://www.chess.com/download/view/600-annotated-games"]);
    let pgn = std::fs::read(&path).unwrap();
    let game = PgnReader::from_bytes(&pgn, Default::default()).next().unwrap().unwrap().game;
    assert_eq!(game.tag("White").map(|t| t.as_bytes()), Some("Pillsbury".as_bytes()));
    assert_eq!(
        game.moves.comments,
        [" Source of annotations:", " http://www.chess.com/download/view/600-annotated-games"]
    );
}

/// Issue 16's fuzzed PGN with variations nested 5,625+ deep overflowed the stack in every
/// command. The reader drops what lies deeper than 255 levels, with an error naming the game,
/// and the game is written as PGN and SCID (on a test thread's small stack).
#[test]
fn variations_nested_too_deep_are_dropped_with_an_error() {
    let depth = 6_000;
    let mut pgn = b"[Event \"deep\"]\n\n1. e4 e5 ".to_vec();
    pgn.extend(std::iter::repeat_n(b"(1... c5 ".as_slice(), depth).flatten());
    pgn.extend(std::iter::repeat_n(b')', depth));
    pgn.extend_from_slice(b" 2. Nf3 *\n\n");
    let read: Vec<_> = PgnReader::from_bytes(&pgn, Default::default()).collect::<Result<_, _>>().unwrap();
    assert_eq!(read.len(), 1);
    let codes: Vec<&str> = read[0].diagnostics.iter().map(|d| d.code).collect();
    assert_eq!(codes, ["pgn.variation_too_deep"]);
    assert_eq!(read[0].diagnostics[0].location.number, Some(1));
    let game = &read[0].game;
    assert_eq!(game.ply_count(), 3);
    let mut levels = 0;
    let mut node = &game.moves.nodes[1];
    while let Some(variation) = node.variations().first() {
        levels += 1;
        node = &variation.nodes[0];
    }
    assert_eq!(levels, 255);
    assert!(scid_pgn(std::slice::from_ref(game)).ends_with(b") 2.Nf3 *\n\n"));
    let dir = tempfile::tempdir().unwrap();
    write_database(&dir.path().join("deep.si4"), Version::Scid4, [game.clone()]).unwrap();
}

/// SCID's import drops a tag pair over 240 bytes (name and value); tabiya's does too, with a
/// warning for each (issue 16: a long White name vanished without a word).
#[test]
fn a_tag_pair_over_240_bytes_is_dropped_with_a_warning() {
    let long = "x".repeat(236);
    let pgn = format!("[Event \"e\"]\n[White \"{long}\"]\n[Annotator \"{long}\"]\n[Black \"b\"]\n\n1. e4 *\n\n");
    let games = games(pgn.as_bytes());
    let dir = tempfile::tempdir().unwrap();
    let summary = write_database(&dir.path().join("long.si4"), Version::Scid4, games).unwrap();
    let found: Vec<(&str, &str)> = summary.diagnostics.iter().map(|d| (d.code, d.message.as_str())).collect();
    assert_eq!(found.len(), 2, "{found:?}");
    assert!(found.iter().all(|(code, _)| *code == "scid.tag_too_long"));
    assert!(
        found[0].1.starts_with("tag White dropped") && found[1].1.starts_with("tag Annotator dropped"),
        "{found:?}"
    );
}

/// A .si4 cut short (issue 16: 1,339 games cut to 757) and a header-only .si4 claiming
/// 16,777,215 games: `verify` fails on both (`scid.index_game_count`, an error).
#[test]
fn an_index_holding_fewer_games_than_its_header_counts_fails_verify() {
    let Some(si4) = tabiya_testdata::corpus_file("scid/generated-scid502/five_4.si4") else { return };
    let bytes = std::fs::read(&si4).unwrap();
    let dir = tempfile::tempdir().unwrap();
    for extension in ["sg4", "sn4"] {
        std::fs::copy(si4.with_extension(extension), dir.path().join("cut").with_extension(extension)).unwrap();
    }
    let mut header_only = bytes[..182].to_vec();
    header_only[14..17].copy_from_slice(&[0xff, 0xff, 0xff]);
    // five_4 holds 5 games of 47 bytes after its 182-byte header.
    for (kept, declared) in [(&bytes[..bytes.len() - 47 * 2], 5u64), (&header_only[..], 16_777_215)] {
        let path = dir.path().join("cut.si4");
        std::fs::write(&path, kept).unwrap();
        let db = Database::open(&path).unwrap();
        let v = tabiya_chess::scid::verify::verify(&db, &path);
        assert!(!v.ok, "{:?}", v.problems);
        let problem = v.problems.iter().find(|d| d.code == "scid.index_game_count").unwrap();
        assert!(problem.is_error());
        assert!(problem.message.starts_with(&format!("header counts {declared} games")), "{}", problem.message);
    }
}
