//! Text with legacy bytes (Windows-1252 and Latin-1: bytes 0x80–0xFF that are not UTF-8)
//! through PGN → SCID, SCID → PGN, SCID → SCID and PGN → PGN, against SCID 5.0.2's own files.
//!
//! SCID keeps a name's, tag's or comment's bytes: a byte 0x80–0xBF stays as it is, a lone byte
//! 0xC0–0xFF becomes its Latin-1 character in UTF-8 (`pgn::normalize` of its PGN lexer). The
//! digests pinned here are those of the files SCID 5.0.2 wrote from the corpus files, made with
//! the drivers in `benches/peers/scid`:
//!
//! ```text
//! scid import.tcl SCID4 out4 FILE.pgn; scid export.tcl SCID4 out4 out4.export.pgn
//! scid import.tcl SCID5 out5 FILE.pgn; scid export.tcl SCID5 out5 out5.export.pgn
//! ```
//!
//! (FNV-1a, 64 bits, of the index file, the name file, the game records in game order — SCID's
//! block padding is garbage and is not compared — and the export.)

use std::path::Path;

use tabiya_chess::game::{Game, GameResult};
use tabiya_chess::games::{Sink, Source};
use tabiya_chess::pgn::{PgnReader, WriterOptions, write};
use tabiya_chess::scid::export::export_pgn;
use tabiya_chess::scid::{Database, DatabaseWriter, Version};
use tabiya_io::Diagnostic;
use tabiya_testdata::corpus_file;

/// FNV-1a, 64 bits, continuing from `hash`.
fn fnv1a(hash: u64, bytes: &[u8]) -> u64 {
    bytes.iter().fold(hash, |h, &b| (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3))
}

const FNV_START: u64 = 0xcbf2_9ce4_8422_2325;

/// What SCID 5.0.2 wrote from one PGN file for one version: (length, digest) of the index file,
/// the name file and the export, and the digest of the game records.
struct Scid502 {
    pgn: &'static str,
    version: Version,
    index: (usize, u64),
    names: (usize, u64),
    records: u64,
    export: (usize, u64),
}

const CASES: [Scid502; 4] = [
    // `[Black "Quadros,Andr\x82"]` (0x82 stays) and `[Black "W\xe4lbers, W."]` (0xE4 becomes
    // U+00E4).
    Scid502 {
        pgn: "pgn/medium-pgnmentor-12players.pgn",
        version: Version::Scid4,
        index: (1_503_712, 0xebb7_53bc_01e4_3d2f),
        names: (144_188, 0x43f5_3188_5c42_4ce4),
        records: 0x2db2_5fe3_2380_6556,
        export: (21_883_388, 0xc460_4cf6_fd3b_dc36),
    },
    // Names in Latin-1 (`Kr\xe0mnik`), SCID's own test file.
    Scid502 {
        pgn: "pgn/edge-cases/scid-res_gameLatin1.pgn",
        version: Version::Scid4,
        index: (229, 0xc063_e5cb_ebe0_c0ec),
        names: (113, 0x3c96_f05d_583b_ba38),
        records: RECORDS_LATIN1,
        export: (8_557, 0x1cd1_64d3_23d7_1d05),
    },
    Scid502 {
        pgn: "pgn/edge-cases/scid-res_gameLatin1.pgn",
        version: Version::Scid5,
        index: (56, 0x3648_7755_b84d_a9df),
        names: (63, 0xa43c_1e76_8004_3a13),
        records: RECORDS_LATIN1,
        export: (8_557, 0x1cd1_64d3_23d7_1d05),
    },
    Scid502 {
        pgn: "pgn/medium-pgnmentor-12players.pgn",
        version: Version::Scid5,
        index: (1_791_440, 0xd679_4ddc_e908_e10f),
        names: (145_228, 0x3bea_44f3_8bdd_3a5a),
        records: 0x2db2_5fe3_2380_6556,
        export: (21_883_388, 0xc460_4cf6_fd3b_dc36),
    },
];

const RECORDS_LATIN1: u64 = 0x0c38_e43d_5417_76bf;

/// The digest of `db`'s game records in game order, leaving out the games numbered (from 1)
/// in `except`.
fn records_digest(db: &Database, except: &[usize]) -> u64 {
    (0..db.len()).filter(|n| !except.contains(&(n + 1))).fold(FNV_START, |h, n| fnv1a(h, db.raw_record(n).unwrap()))
}

fn file_digest(path: &Path) -> (usize, u64) {
    let bytes = std::fs::read(path).unwrap();
    (bytes.len(), fnv1a(FNV_START, &bytes))
}

/// The games of `source` written to a new database at `out`, as `convert` writes them.
fn convert_to_scid(source: &Path, out: &Path, version: Version) -> Vec<Diagnostic> {
    let writer = DatabaseWriter::create(out, version).unwrap();
    let mut sink = Sink::<std::io::Sink>::scid(writer);
    let source = Source::open(source).unwrap();
    let mut found = Vec::new();
    sink.add_source(&source, &mut found, |_| {}).unwrap();
    sink.finish(&mut found).unwrap();
    found
}

fn export(db: &Path) -> Vec<u8> {
    let db = Database::open(db).unwrap();
    let mut out = Vec::new();
    export_pgn(&db, &WriterOptions::scid(), &mut out, |_| {}).unwrap();
    out
}

#[test]
fn pgn_to_scid_to_pgn_and_scid_to_scid_keep_the_bytes_scid_keeps() {
    let dir = tempfile::tempdir().unwrap();
    for case in CASES {
        let Some(pgn) = corpus_file(case.pgn) else { return };
        let [index_ext, _, names_ext] = case.version.extensions();
        let stem = format!("{}-{index_ext}", pgn.file_stem().unwrap().to_str().unwrap());
        let ours = dir.path().join(format!("{stem}.{index_ext}"));
        let found = convert_to_scid(&pgn, &ours, case.version);
        assert!(found.iter().all(|d| d.code != "pgn.not_utf8"), "{found:?}");
        let what = format!("{} as {index_ext}", case.pgn);
        assert_eq!(file_digest(&ours), case.index, "{what}: index");
        assert_eq!(file_digest(&ours.with_extension(names_ext)), case.names, "{what}: names");
        assert_eq!(records_digest(&Database::open(&ours).unwrap(), &[]), case.records, "{what}: records");
        let exported = export(&ours);
        assert_eq!((exported.len(), fnv1a(FNV_START, &exported)), case.export, "{what}: export");
        // SCID → SCID: the same files again.
        let again = dir.path().join(format!("{stem}-again.{index_ext}"));
        convert_to_scid(&ours, &again, case.version);
        assert_eq!(file_digest(&again), case.index, "{what} → {index_ext}: index");
        assert_eq!(file_digest(&again.with_extension(names_ext)), case.names, "{what} → {index_ext}: names");
    }
}

/// The games of a PGN file written back as PGN with the standard layout.
fn pgn_to_pgn(pgn: &Path) -> Vec<u8> {
    let mut out = Vec::new();
    for game in PgnReader::new(std::fs::File::open(pgn).unwrap()) {
        write::push_game(&game.unwrap().game, &WriterOptions::default(), &mut out);
    }
    out
}

/// PGN → PGN writes back every byte of the tags and comments, and JSON Lines carries them as
/// `{"latin1": …}` and gives them back.
#[test]
fn pgn_to_pgn_and_json_lines_keep_legacy_bytes() {
    let Some(medium) = corpus_file("pgn/medium-pgnmentor-12players.pgn") else { return };
    let Some(dirty) = corpus_file("pgn/edge-cases/dirty-immortal-games-latin1-crlf.pgn") else { return };
    let original = std::fs::read(&medium).unwrap();
    let written = pgn_to_pgn(&medium);
    for name in [&b"[Black \"Quadros,Andr\x82\"]"[..], b"[Black \"W\xe4lbers, W.\"]"] {
        let count = |text: &[u8]| text.windows(name.len()).filter(|w| *w == name).count();
        assert_eq!((count(&original), count(&written)), (1, 1), "{}", String::from_utf8_lossy(name));
    }
    // Comments: `{It\xe2s quite worth another pawn …}` keeps its lone 0xE2.
    let written = pgn_to_pgn(&dirty);
    assert!(written.windows(5).any(|w| w == b"{It\xe2s"));
    let legacy = |game: &Game| game.moves.nodes.iter().flat_map(|n| n.comments()).any(|c| c.to_str().is_none());
    let game = PgnReader::new(&written[..]).map(|g| g.unwrap().game).find(legacy).unwrap();
    let mut line = Vec::new();
    tabiya_chess::jsonl::push_game(&game, &mut line).unwrap();
    let line = String::from_utf8(line).expect("JSON Lines is UTF-8");
    // The byte 0xE2 as the character U+00E2.
    assert!(line.contains("{\"latin1\":\"It\u{e2}s quite"), "{line}");
    assert_eq!(tabiya_chess::jsonl::read_game(line.trim_end()).unwrap(), game);
}

/// `dirty-immortal-games-latin1-crlf.pgn` (36 games, comments with lone bytes such as
/// `It\xe2s`): the names and 33 of the 36 game records are SCID 5.0.2's. Games 15 and 18 write a
/// capture without its mark (`21...Raf8` for Raxf8, `15...Nd7` for Nxd7), which SCID reads
/// (its `Position::ReadMove` ignores the mark) and so does tabiya, with a warning. Games 2, 32
/// and 36 differ on purpose: SCID's import gives up the rest of a game at a token it cannot
/// read (`Bc1,` with a comma in 2 and 36, `g1xd1` in a variation of 32) and keeps only the
/// moves before it, where tabiya reads the comma as a space and `g1xd1` as the long-algebraic
/// move it is, with a warning each, and keeps the rest of the game. Games 1, 17, 25 and 34
/// hold an ambiguous move: SCID and tabiya both cut them there (9, 29, 24 and 17 plies in SCID
/// 5.0.2's records), but SCID keeps the result the whole game had, where tabiya writes `*` and a
/// comment that says where and why the game was cut and what its result was (issue 16).
#[test]
fn dirty_file_matches_scid_but_for_the_games_scid_cuts_short() {
    let Some(pgn) = corpus_file("pgn/edge-cases/dirty-immortal-games-latin1-crlf.pgn") else { return };
    let dir = tempfile::tempdir().unwrap();
    let names = [(Version::Scid4, (898, 0x6db4_a4e1_c80c_5e59)), (Version::Scid5, (726, 0xba27_f83b_9e99_7fdf))];
    for (version, names) in names {
        let [index_ext, _, names_ext] = version.extensions();
        let ours = dir.path().join(format!("dirty.{index_ext}"));
        let found = convert_to_scid(&pgn, &ours, version);
        let capture_marks: Vec<_> =
            found.iter().filter(|d| d.code == "pgn.capture_mark").map(|d| d.location.number).collect();
        assert_eq!(capture_marks, [Some(15), Some(18)], "{found:?}");
        assert_eq!(file_digest(&ours.with_extension(names_ext)), names, "{index_ext}: names");
        let db = Database::open(&ours).unwrap();
        assert_eq!(db.len(), 36);
        assert_eq!(records_digest(&db, &[1, 2, 17, 25, 32, 34, 36]), 0x7e57_a213_dc01_cb65, "{index_ext}: records");
        for (number, scid_plies) in [(1, 9), (17, 29), (25, 24), (34, 17)] {
            let game = db.read_game(number - 1, &mut Vec::new()).unwrap();
            assert_eq!((game.ply_count(), game.result), (scid_plies, GameResult::Unknown), "game {number}");
            let last = game.moves.nodes.last().unwrap().comments().last().unwrap();
            // SCID keeps one comment a move: an earlier comment of the last move comes first.
            let said = b"tabiya: the game is cut here, at the ambiguous move";
            assert!(last.as_bytes().windows(said.len()).any(|w| w == said), "game {number}");
            assert!(last.as_bytes().ends_with(b"its result was 1-0"), "game {number}");
        }
    }
}
