//! Every Wthor file of the corpus reads and writes back byte for byte; the test vectors of
//! specs/wthor.md section 11; synthetic .wtd and .pzz files built from the document and notes.

use std::path::{Path, PathBuf};

use tabiya_io::{Diagnostic, Severity};
use tabiya_othello::wthor::{
    BoardSize, Game10, GameFile, GameFile10, Header, NameFile, NameKind, Solitaire, SolitaireFile, verify_games_10,
};
use tabiya_testdata::corpus_file;

fn files_in(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).collect();
    files.sort();
    files
}

#[test]
fn every_corpus_file_round_trips_byte_for_byte() {
    let Some(current) = corpus_file("wthor/current") else { return };
    let release = corpus_file("wthor/release-2022").unwrap();
    let (mut game_files, mut games, mut name_files) = (0, 0, 0);
    for path in files_in(&current).into_iter().chain(files_in(&release)) {
        let bytes = std::fs::read(&path).unwrap();
        let mut warnings: Vec<Diagnostic> = Vec::new();
        let name = path.file_name().unwrap().to_str().unwrap();
        let written = if name.ends_with(".wtb") {
            let file = GameFile::read(&bytes, &mut warnings).unwrap();
            assert_eq!(file.header.board_size, 8, "{name}");
            assert_eq!(file.header.depth, 24, "{name}: P3 is 24 in every real file");
            assert_eq!(file.header.century, 20, "{name}");
            assert_eq!(name, format!("WTH_{}.wtb", file.header.game_year));
            game_files += 1;
            games += file.games.len();
            file.to_bytes()
        } else {
            let kind = if name == "WTHOR.JOU" { NameKind::Players } else { NameKind::Tournaments };
            name_files += 1;
            NameFile::read(kind, &bytes, &mut warnings).unwrap().to_bytes()
        };
        assert!(warnings.is_empty(), "{name}: {warnings:?}");
        assert!(written == bytes, "{name} does not write back byte for byte");
    }
    assert_eq!((game_files, name_files), (52, 4));
    // 137,548 in current/ plus WTH_2019–2021 of the 2022 release (1,949 + 880 + 320).
    assert_eq!(games, 137_548 + 1_949 + 880 + 320);
}

#[test]
fn test_vectors_of_the_notes() {
    let Some(path) = corpus_file("wthor/current/WTH_1977.wtb") else { return };
    let file = GameFile::read(&std::fs::read(path).unwrap(), &mut Vec::<Diagnostic>::new()).unwrap();
    assert_eq!(file.header.date(), (2007, 5, 22));
    assert_eq!((file.header.n1, file.games.len(), file.header.game_year), (12, 12, 1977));
    let g = &file.games[0];
    assert_eq!((g.tournament, g.black, g.white, g.real_score, g.theoretical_score), (1, 346, 843, 34, 41));
    let transcript = "f5d6c3f3f4d3c4g6f6e6c5c6d7d8e7g5e3d2g4h3f7b5h5g3b4b6c8b8c7e8f8g8h4h6e2d1c1a3a6a5e1f2g7c2a4h8a2b7f1b3b1b2h7a7a8a1g1g2h2h1";
    let expected: Vec<u8> = transcript.as_bytes().chunks(2).map(|m| (m[1] - b'0') * 10 + (m[0] - b'a' + 1)).collect();
    assert_eq!(g.moves.to_vec(), expected);
    assert_eq!(g.move_count(), 60);
    let g9 = &file.games[9];
    assert_eq!((g9.tournament, g9.black, g9.white, g9.real_score, g9.theoretical_score), (1, 445, 2438, 40, 40));

    let current = corpus_file("wthor/current").unwrap();
    let jou = NameFile::read(
        NameKind::Players,
        &std::fs::read(current.join("WTHOR.JOU")).unwrap(),
        &mut Vec::<Diagnostic>::new(),
    )
    .unwrap();
    assert_eq!(jou.header.date(), (2026, 2, 16));
    assert_eq!(jou.len(), 4448);
    assert_eq!(
        [jou.name(0).unwrap(), jou.name(1).unwrap(), jou.name(2).unwrap()],
        ["???", "Tastet Marc", "Penloup Dominique"]
    );
    assert_eq!(jou.name(346).unwrap(), "Inoue Hiroshi");
    assert_eq!(jou.name(843).unwrap(), "Heiberg Thomas");
    assert_eq!(jou.name(1368).unwrap(), "Edax (delorme)");
    assert!(jou.find("Logistello (buro)").is_some());
    let trn = NameFile::read(
        NameKind::Tournaments,
        &std::fs::read(current.join("WTHOR.TRN")).unwrap(),
        &mut Vec::<Diagnostic>::new(),
    )
    .unwrap();
    assert_eq!(trn.header.date(), (2026, 2, 19));
    assert_eq!(trn.len(), 492);
    assert_eq!([trn.name(0).unwrap(), trn.name(1).unwrap()], ["Diverses parties", "World Championship"]);
    let accented = trn.names().filter(|n| n.contains('é') || n.contains('è')).count();
    assert_eq!(accented, 21, "TRN names with é or è (bytes 0xE9/0xE8, Windows-1252)");
    assert!(trn.names().any(|n| n == "Préqualif de Paris"));
    let programs = jou.names().filter(|n| n.ends_with(')') && n.contains(" (")).count();
    assert_eq!(programs, 225, "program entries `Name (author)`");
}

#[test]
fn names_are_appended_with_stable_indices() {
    let Some(path) = corpus_file("wthor/release-2022/WTHOR.JOU") else { return };
    let old = NameFile::read(NameKind::Players, &std::fs::read(path).unwrap(), &mut Vec::<Diagnostic>::new()).unwrap();
    let new_path = corpus_file("wthor/current/WTHOR.JOU").unwrap();
    let new =
        NameFile::read(NameKind::Players, &std::fs::read(new_path).unwrap(), &mut Vec::<Diagnostic>::new()).unwrap();
    assert_eq!((old.len(), new.len()), (3884, 4448));
    let edited = (0..old.len()).filter(|&i| old.name(i) != new.name(i)).count();
    assert_eq!(edited, 18, "player names edited in place between the 2022 and 2026 releases");
    let mut grown = old.clone();
    for i in old.len()..new.len() {
        assert_eq!(usize::from(grown.append(&new.name(i).unwrap()).unwrap()), i);
    }
    assert_eq!(grown.len(), new.len());
    let (grown, new) = (grown.to_bytes(), new.to_bytes());
    assert_eq!(grown[16 + old.len() * 20..], new[16 + old.len() * 20..], "appended records are the new release's");
    assert_eq!(grown[8..10], new[8..10], "N2");
}

#[test]
fn name_writer_refuses_what_the_file_cannot_hold() {
    let mut trn = NameFile::new(NameKind::Tournaments, Header::dated((2026, 2, 19)));
    assert_eq!(trn.append("Préqualif de Paris").unwrap(), 0);
    assert_eq!(&trn.to_bytes()[16..16 + 19], b"Pr\xe9qualif de Paris\0");
    assert_eq!(trn.append("x".repeat(25).as_str()).unwrap(), 1);
    assert!(trn.append("x".repeat(26).as_str()).is_err(), "26 bytes do not fit a 26-byte record with its NUL");
    assert!(trn.append("Tōkyō Open").is_err(), "ō is not in Windows-1252");
    assert!(trn.append("").is_err());
    assert_eq!(trn.len(), 2);
    let bytes = trn.to_bytes();
    assert_eq!(bytes.len(), 16 + 2 * 26);
    assert_eq!(&bytes[8..10], &[2, 0], "N2 counts the names");
    assert_eq!(trn.find_or_append("Préqualif de Paris").unwrap(), 0);
}

/// A 10×10 file as the document describes it: P1 = 10, 104-byte records, moves `column + 12 · row`.
#[test]
fn synthetic_wtd_file() {
    let mut bytes = vec![20, 26, 2, 16, 2, 0, 0, 0, 0, 0, 0xe9, 0x07, 10, 0, 22, 0];
    for (tournament, moves) in [(3u16, &[79u8, 80, 67][..]), (4, &[121, 130, 13, 22][..])] {
        bytes.extend_from_slice(&tournament.to_le_bytes());
        bytes.extend_from_slice(&[7, 0, 8, 0, 50, 52]);
        let mut m = [0u8; 96];
        m[..moves.len()].copy_from_slice(moves);
        bytes.extend_from_slice(&m);
    }
    assert_eq!(bytes.len(), 16 + 2 * 104);
    let mut warnings: Vec<Diagnostic> = Vec::new();
    let file = GameFile10::read(&bytes, &mut warnings).unwrap();
    assert!(warnings.is_empty(), "{warnings:?}");
    assert_eq!(file.header.game_year, 2025);
    assert_eq!(file.games.len(), 2);
    let g: &Game10 = &file.games[0];
    assert_eq!((g.tournament, g.black, g.white, g.real_score, g.theoretical_score), (3, 7, 8, 50, 52));
    assert_eq!(g.move_count(), 3);
    let squares: Vec<String> = g
        .stored_moves()
        .iter()
        .map(|&b| BoardSize::Ten.decode(b).map(|(c, r)| BoardSize::Ten.name(c, r)).unwrap())
        .collect();
    assert_eq!(squares, ["g6", "h6", "g5"]);
    let corners: Vec<String> = file.games[1]
        .stored_moves()
        .iter()
        .map(|&b| BoardSize::Ten.decode(b).map(|(c, r)| BoardSize::Ten.name(c, r)).unwrap())
        .collect();
    assert_eq!(corners, ["a10", "j10", "a1", "j1"]);
    assert_eq!(file.to_bytes(), bytes);
    // Replayed on the 10×10 board, neither game is legal: White cannot answer g6 with h6, and
    // a10 is no first move.
    let v = verify_games_10(Path::new("WTH_2025.wtd"), &bytes, None);
    let found: Vec<(&str, Option<u64>)> = v.problems.iter().map(|p| (p.code, p.location.offset)).collect();
    assert_eq!(
        found,
        [
            ("wthor.illegal_move", Some(16 + 8 + 1)),
            ("wthor.first_move", Some(16 + 104 + 8)),
            ("wthor.illegal_move", Some(16 + 104 + 8))
        ]
    );
    let mut bad = bytes.clone();
    bad[16 + 8 + 1] = 12 * 11 + 1; // row 11 does not exist
    bad[16 + 104 + 8 + 50] = 13; // a move after the padding
    let v = verify_games_10(Path::new("WTH_2025.wtd"), &bad, None);
    let errors: Vec<(&str, Option<u64>)> =
        v.problems.iter().filter(|p| p.severity == Severity::Error).map(|p| (p.code, p.location.offset)).collect();
    assert_eq!(
        errors,
        [
            ("wthor.bad_square", Some(16 + 8 + 1)),
            ("wthor.bytes_after_padding", Some(16 + 104 + 8 + 4)),
            ("wthor.illegal_move", Some(16 + 104 + 8))
        ]
    );
    // Read as an 8×8 file, the same bytes are suspicious: P1 says 10.
    let mut warnings: Vec<Diagnostic> = Vec::new();
    let as_wtb = GameFile::read(&bytes, &mut warnings).unwrap();
    assert!(!warnings.is_empty());
    assert_eq!(as_wtb.games.len(), 3, "208 bytes of records hold three 68-byte records");
}

/// A solitaire file as the notes describe it: 256-byte presence table, 36-byte records.
#[test]
fn synthetic_pzz_file() {
    let mut bytes = vec![20, 26, 2, 16, 1, 0, 0, 0, 4, 0, 0, 0, 8, 1, 0, 0];
    let mut table = [0u8; 256];
    table[12] = 1; // entry 4 (1-based) holds N1 = 1
    bytes.extend_from_slice(&table);
    // Year 1999, tournament 5, Black 6, White 7.
    bytes.extend_from_slice(&[0xcf, 0x07, 5, 0, 6, 0, 0, 0, 7, 0, 0, 0]);
    // Row 1: a1 black, b1 white, c1–d1 empty | e1–h1 black. Rows 2–8 all black except h8 empty.
    let mut position = [0xffu8; 16];
    position[0] = 0b11_10_00_00;
    position[15] = 0b11_11_11_00;
    bytes.extend_from_slice(&position);
    // 4 empties, White to move, score −6, best move c1 (13), real 40, played d1 (14), reserved.
    bytes.extend_from_slice(&[4, 2, 0xfa, 13, 40, 14, 0, 0]);
    assert_eq!(bytes.len(), 16 + 256 + 36);

    let mut warnings: Vec<Diagnostic> = Vec::new();
    let file = SolitaireFile::read(&bytes, &mut warnings).unwrap();
    assert!(warnings.is_empty(), "{warnings:?}");
    let s: &Solitaire = &file.solitaires[0];
    assert_eq!((s.year, s.tournament, s.black, s.white), (1999, 5, 6, 7));
    assert_eq!((s.empties, s.side_to_move, s.score, s.best_move, s.real_score, s.played_move), (4, 2, -6, 13, 40, 14));
    let (black, white) = s.discs();
    assert_eq!(white, 1 << 1, "b1");
    let empty = !(black | white);
    assert_eq!(empty, 1 << 2 | 1 << 3 | 1 << 63, "c1 d1 h8");
    assert_eq!(black.count_ones(), 60);
    let mut copy = *s;
    copy.set_discs(black, white);
    assert_eq!(copy.position, position);
    assert_eq!(file.to_bytes(), bytes);

    // The document's 512-byte table is accepted when the size fits it exactly; written back as 256.
    let mut doc = bytes[..16 + 256].to_vec();
    doc.extend_from_slice(&[0; 256]);
    doc.extend_from_slice(&bytes[16 + 256..]);
    let mut warnings: Vec<Diagnostic> = Vec::new();
    let read = SolitaireFile::read(&doc, &mut warnings).unwrap();
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert_eq!(read, file);
    assert_eq!(read.to_bytes(), bytes);

    // A new file starts from a dated header and fills the table itself.
    let mut new = SolitaireFile::new(Header::dated((2026, 2, 16)), 4);
    new.solitaires.push(*s);
    assert_eq!(new.to_bytes(), bytes);
}

#[test]
fn count_and_size_disagreements_are_warnings() {
    let Some(path) = corpus_file("wthor/current/WTH_1978.wtb") else { return };
    let bytes = std::fs::read(path).unwrap();
    assert_eq!(bytes.len(), 16 + 8 * 68);
    let mut longer_n1 = bytes.clone();
    longer_n1[4] = 9;
    let mut warnings: Vec<Diagnostic> = Vec::new();
    let file = GameFile::read(&longer_n1, &mut warnings).unwrap();
    assert_eq!(file.games.len(), 8);
    assert_eq!(warnings.len(), 1);
    assert_eq!(warnings[0].location.offset, Some(4));
    assert_eq!(warnings[0].code, "wthor.header_count");
    assert_eq!(file.to_bytes(), bytes, "the writer corrects N1");
    let mut warnings: Vec<Diagnostic> = Vec::new();
    let cut = GameFile::read(&bytes[..bytes.len() - 10], &mut warnings).unwrap();
    assert_eq!(cut.games.len(), 7);
    assert_eq!(warnings.len(), 2, "partial record and N1: {warnings:?}");
    assert!(GameFile::read(&bytes[..10], &mut Vec::<Diagnostic>::new()).is_err(), "a header cut short is an error");
}

/// Between releases the FFO reorders records and adds games to past years, but the moves and
/// scores of a game never change: every 2022 game is in the 2026 file of its year.
#[test]
fn later_releases_keep_every_game() {
    let Some(old_dir) = corpus_file("wthor/release-2022") else { return };
    let new_dir = corpus_file("wthor/current").unwrap();
    for (year, old_count, new_count) in [(2019, 1_949, 1_983), (2020, 880, 896), (2021, 320, 680)] {
        let read = |dir: &Path| {
            let bytes = std::fs::read(dir.join(format!("WTH_{year}.wtb"))).unwrap();
            GameFile::read(&bytes, &mut Vec::<Diagnostic>::new()).unwrap()
        };
        let (old, new) = (read(&old_dir), read(&new_dir));
        assert_eq!((old.games.len(), new.games.len()), (old_count, new_count));
        let mut pool: std::collections::HashMap<_, usize> = std::collections::HashMap::new();
        for g in &new.games {
            *pool.entry((g.moves, g.real_score, g.theoretical_score)).or_default() += 1;
        }
        for (i, g) in old.games.iter().enumerate() {
            let left = pool.entry((g.moves, g.real_score, g.theoretical_score)).or_default();
            assert!(*left > 0, "{year} record {i} is not in the later release");
            *left -= 1;
        }
    }
}

/// A new name file starts as the FFO's do: entry 0 is `???` (players) or `Diverses parties`
/// (tournaments), byte for byte as in the real files.
#[test]
fn new_name_files_start_with_the_ffo_unknown_entry() {
    let Some(dir) = corpus_file("wthor/current") else { return };
    for (kind, name) in [(NameKind::Players, "WTHOR.JOU"), (NameKind::Tournaments, "WTHOR.TRN")] {
        let bytes = std::fs::read(dir.join(name)).unwrap();
        let new = NameFile::with_unknown_entry(kind, Header::dated((2026, 2, 16)));
        assert_eq!(new.len(), 1);
        assert_eq!(new.record(0).unwrap(), &bytes[16..16 + kind.record_len()], "{name}");
    }
}
