//! Reading through a selection: the PGN fast path (games judged on their tags by the walk,
//! only those kept read whole) keeps exactly the games, diagnostics and errors that reading
//! every game whole and judging it keeps, on every corpus PGN file, compressed or not.

use std::io::Write;
use std::path::Path;

use tabiya_chess::games::select::criteria::{RatingIn, StartsWith, TagPrefix};
use tabiya_chess::games::select::{GameFilter, Not, Selection};
use tabiya_chess::games::{ReadItem, Source};
use tabiya_chess::pgn::{PgnReader, ReadOptions};
use tabiya_testdata::corpus_file;

/// Every item `read_selected` gives, as text: kept games whole, rejected ones as `-`.
fn selected(path: &Path, selection: &Selection) -> Vec<String> {
    let mut items = Vec::new();
    Source::open(path)
        .unwrap()
        .read_selected(
            selection,
            |game| format!("{game:?}"),
            |item: ReadItem<Option<String>>| {
                items.push(match item {
                    Ok((Some(game), found)) => format!("{game} {found:?}"),
                    Ok((None, _)) => "-".to_owned(),
                    Err(e) => format!("error: {e}"),
                });
                Ok::<(), ()>(())
            },
        )
        .unwrap();
    items
}

/// The same, reading every game whole in order and judging it after.
fn judged_after(path: &Path, selection: &Selection) -> Vec<String> {
    let text = std::fs::read(path).unwrap();
    let options = ReadOptions { file: Some(path.to_path_buf()), ..ReadOptions::default() };
    PgnReader::from_bytes(&text, options)
        .map(|item| match item {
            Ok(read) if selection.accepts(&read.game) => format!("{:?} {:?}", read.game, read.diagnostics),
            Ok(_) => "-".to_owned(),
            Err(e) => format!("error: {e}"),
        })
        .collect()
}

fn selections() -> Vec<(&'static str, Selection)> {
    vec![
        ("all", Selection::all()),
        ("player", Selection::all().with(TagPrefix::player("Ca"))),
        ("not player", Selection::all().with(Not(Box::new(TagPrefix::player("Ca"))))),
        ("elo", Selection::all().with(RatingIn::parse(&["WhiteElo"], "2500..").unwrap())),
        ("moves", Selection::all().with(StartsWith::parse("e4").unwrap())),
        ("not moves", Selection::all().with(Not(Box::new(StartsWith::parse("e4").unwrap()) as Box<dyn GameFilter>))),
    ]
}

#[test]
fn the_fast_path_keeps_what_judging_whole_games_keeps() {
    let files = [
        "pgn/small-varied.pgn",
        "pgn/edge-cases/pgnextract-null-moves.pgn",
        "pgn/edge-cases/pychess-crazyhouse-saturs-jannlee.pgn",
        "pgn/edge-cases/pgnmentor-double-blank-line-crlf.pgn",
        "pgn/edge-cases/pychess-chessbase-empty-line.pgn",
        "pgn/edge-cases/dirty-immortal-games-latin1-crlf.pgn",
    ];
    for relative in files {
        let Some(path) = corpus_file(relative) else { return };
        for (name, selection) in selections() {
            let expected = judged_after(&path, &selection);
            assert!(!expected.is_empty());
            let got = selected(&path, &selection);
            assert_eq!(got.len(), expected.len(), "{relative}, {name}");
            for (n, (a, b)) in got.iter().zip(&expected).enumerate() {
                assert!(a == b, "{relative}, {name}, game {}:\n{a}\n{b}", n + 1);
            }
        }
    }
}

#[test]
fn compressed_pgn_reads_as_the_file() {
    let Some(path) = corpus_file("pgn/small-varied.pgn") else { return };
    let dir = tempfile::tempdir().unwrap();
    let zst = dir.path().join("small.pgn.zst");
    let mut encoder = tabiya_io::Compression::Zstd.encoder(std::fs::File::create(&zst).unwrap()).unwrap();
    encoder.write_all(&std::fs::read(&path).unwrap()).unwrap();
    encoder.finish().unwrap();
    for (name, selection) in selections() {
        // Locations name the file read.
        let plain: Vec<String> = selected(&path, &selection)
            .into_iter()
            .map(|s| s.replace(path.to_str().unwrap(), zst.to_str().unwrap()))
            .collect();
        assert!(selected(&zst, &selection) == plain, "{name}");
    }
}

/// Text where a game rejected on its tags is followed by what only its result decides (a
/// blank line, then movetext without tags, which goes on with a game that has no result yet),
/// by a bracket line without a quoted value, by tags with unescaped quotes, escapes and
/// Windows-1252 names, and by a repeated Variant and FEN tag: the fast path (tags judged,
/// rejected movetext skipped) keeps what reading every game whole and judging it keeps.
#[test]
fn the_fast_path_keeps_what_judging_keeps_at_the_edges() {
    let text: &[u8] = b"[White \"Other\"]\n[Black \"Player\"]\n\n1. e4 e5\n\n2. Nf3 Nc6 1-0\n\n\
[White \"Carlsen\"]\n[Black \"Other\"]\n\n1. d4 d5\n\n2. c4 *\n\n\
[White \"Other\"]\n\n1. c4 c5 0-1\n\n2. Nc3 *\n\n\
[White \"Other\"]\n\n1. f4\n\n[not a tag]\n2. Nf3 *\n\n\
[White \"Ca\"rlsen\"]\n[Black \"\\\"Carlsen\\\\\"]\n\n1. e4 *\n\n\
[White \"\xc9mile Carlsen\"]\n[Black \"Carls\xe9n\"]\n\n1. e4 *\n\n\
[White \"Carlsen\"]\n[Variant \"Standard\"]\n[Variant \"Crazyhouse\"]\n[FEN \"8/8/8/8/8/8/8/K6k w - - 0 1\"]\n\
[FEN \"bad\"]\n[SetUp \"1\"]\n\n1. Kb1 *\n";
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("edges.pgn");
    std::fs::write(&path, text).unwrap();
    let mut selections = selections();
    selections.push(("ascii prefix", Selection::all().with(TagPrefix::player("carls"))));
    selections.push(("escaped quote", Selection::all().with(TagPrefix::player("\"carlsen\\"))));
    selections.push(("windows-1252", Selection::all().with(TagPrefix::player("Émile"))));
    selections.push(("windows-1252 inside", Selection::all().with(TagPrefix::player("Carlsé"))));
    for (name, selection) in selections {
        let expected = judged_after(&path, &selection);
        let got = selected(&path, &selection);
        assert_eq!(got, expected, "{name}");
    }
    // What the player selections keep, counted by hand from the text above.
    let kept = |selection: &Selection| {
        selected(&path, selection).iter().filter(|g| *g != "-" && !g.starts_with("error")).count()
    };
    assert_eq!(kept(&Selection::all().with(TagPrefix::player("carls"))), 3);
    assert_eq!(kept(&Selection::all().with(TagPrefix::player("\"carlsen\\"))), 1);
    assert_eq!(kept(&Selection::all().with(TagPrefix::player("Émile"))), 1);
    assert_eq!(kept(&Selection::all().with(TagPrefix::player("Carlsé"))), 1);
}
