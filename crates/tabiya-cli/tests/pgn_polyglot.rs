//! `tabiya` on PGN and Polyglot: the bundled sample, probing, merging, verifying.

use std::path::PathBuf;
use std::process::Command;

use tabiya_testdata::corpus_file;

fn tabiya(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_tabiya")).args(args).output().expect("tabiya runs")
}

fn sample(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../samples").join(name)
}

fn ok(out: &std::process::Output) -> serde_json::Value {
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap_or(serde_json::Value::Null)
}

#[test]
fn the_sample_book_is_what_tabiya_builds_from_the_sample_games() {
    let dir = tempfile::tempdir().unwrap();
    let built = dir.path().join("famous.bin");
    let pgn = sample("famous-games.pgn");
    ok(&tabiya(&["book", pgn.to_str().unwrap(), "-o", built.to_str().unwrap(), "--min-games", "1"]));
    // samples/famous-games.bin is also what `polyglot make-book -min-game 1` writes.
    assert!(std::fs::read(&built).unwrap() == std::fs::read(sample("famous-games.bin")).unwrap());

    let probe = ok(&tabiya(&["probe", built.to_str().unwrap(), "--moves", "e4 e5", "--json"]));
    assert_eq!(probe["found"], true);
    // After 1.e4 e5 the sample has Nf3 (Evergreen, Opera, Legall: 3 White wins) and f4
    // (Immortal: 1 win): weights 2·wins.
    let moves: Vec<(String, u64)> = probe["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| (m["san"].as_str().unwrap().to_owned(), m["weight"].as_u64().unwrap()))
        .collect();
    assert_eq!(moves, [("Nf3".to_owned(), 6), ("f4".to_owned(), 2)]);

    // The sample PGN is in tabiya's own layout: converting it gives the same bytes.
    let copy = dir.path().join("copy.pgn");
    ok(&tabiya(&["-q", "convert", pgn.to_str().unwrap(), "-o", copy.to_str().unwrap()]));
    assert!(std::fs::read(&copy).unwrap() == std::fs::read(&pgn).unwrap());

    let info = ok(&tabiya(&["info", "--json", pgn.to_str().unwrap()]));
    assert_eq!((info["counts"]["games"].as_u64(), info["counts"]["plies"].as_u64()), (Some(12), Some(577)));
}

#[test]
fn probe_verify_and_merge_corpus_books() {
    let Some(performance) = corpus_file("polyglot/performance.bin") else { return eprintln!("skipped") };
    let book = performance.to_str().unwrap();
    let probe = ok(&tabiya(&["probe", book, "--moves", "e4 c5", "--json"]));
    let moves: Vec<(&str, u64, u64)> = probe["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| (m["uci"].as_str().unwrap(), m["weight"].as_u64().unwrap(), m["learn"].as_u64().unwrap()))
        .collect();
    assert_eq!(moves, [("g1f3", 306, 16782336), ("b1c3", 12, 5120), ("c2c3", 10, 4093580288)]);

    let verify = ok(&tabiya(&["verify", "--json", book]));
    assert_eq!((verify["ok"].as_bool(), verify["checked"]["entries"].as_u64()), (Some(true), Some(92_954)));

    // Merging a book with itself doubles every weight and keeps its order.
    let dir = tempfile::tempdir().unwrap();
    let merged = dir.path().join("merged.bin");
    ok(&tabiya(&["-q", "convert", book, book, "-o", merged.to_str().unwrap()]));
    let probe = ok(&tabiya(&["probe", merged.to_str().unwrap(), "--moves", "e4 c5", "--json"]));
    assert_eq!(probe["moves"][0]["weight"], 612);

    // A book cut in the middle of an entry: exit status 3 and the offset. (Sniffing does not
    // take a .bin of that size for a Polyglot book, hence --from.)
    let cut = dir.path().join("cut.bin");
    std::fs::write(&cut, &std::fs::read(&performance).unwrap()[..100]).unwrap();
    let out =
        tabiya(&["convert", "--force", "--from", "polyglot", cut.to_str().unwrap(), "-o", merged.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(3));
    assert!(String::from_utf8_lossy(&out.stderr).contains("@0x60 (entry 6): expected a size that is a multiple of 16"));
}

/// Every option of `tabiya book` that both book formats take filters the same games and plies
/// for a Polyglot and a Kvetka book: four games with known ratings, and the moves each option
/// leaves at the start (and after 1.e4 e5 for the ply limit), probed in both books.
#[test]
fn book_options_mean_the_same_for_polyglot_and_kvetka() {
    let dir = tempfile::tempdir().unwrap();
    let pgn = dir.path().join("rated.pgn");
    let game = |white: Option<u32>, black: Option<u32>, moves: &str| {
        let elo = |tag: &str, elo: Option<u32>| elo.map(|e| format!("[{tag} \"{e}\"]\n")).unwrap_or_default();
        format!("[Result \"1-0\"]\n{}{}\n{moves} 1-0\n\n", elo("WhiteElo", white), elo("BlackElo", black))
    };
    let games = [
        game(Some(2600), Some(2600), "1. e4 e5 2. Nf3"),
        game(Some(2600), Some(2300), "1. d4 d5"),
        game(None, None, "1. c4 e5"),
        game(Some(2300), Some(2600), "1. Nf3 d5"),
    ];
    std::fs::write(&pgn, games.concat()).unwrap();
    let cases: [(&[&str], &str, &[&str]); 9] = [
        (&[], "", &["Nf3", "c4", "d4", "e4"]),
        (&["--min-elo", "2500"], "", &["e4"]),
        (&["--min-weak-elo", "2500"], "", &["e4"]),
        (&["--min-white-elo", "2500"], "", &["d4", "e4"]),
        (&["--min-black-elo", "2500"], "", &["Nf3", "e4"]),
        (&["--min-strong-elo", "2500"], "", &["Nf3", "d4", "e4"]),
        (&[], "e4 e5", &["Nf3"]),
        (&["--max-ply", "2"], "e4 e5", &[]),
        (&["--max-move", "2"], "e4 e5", &[]),
    ];
    for (n, (options, position, expected)) in cases.iter().enumerate() {
        for extension in ["bin", "kob"] {
            let book = dir.path().join(format!("{n}.{extension}"));
            let mut args = vec!["-q", "book", pgn.to_str().unwrap(), "-o", book.to_str().unwrap()];
            if extension == "bin" {
                // make-book's default leaves out moves of fewer than 3 games.
                args.extend(["--min-games", "1"]);
            }
            args.extend(*options);
            ok(&tabiya(&args));
            let probed = if extension == "kob" { dir.path().join(format!("{n}_0.kob")) } else { book };
            let probe = ok(&tabiya(&["probe", probed.to_str().unwrap(), "--moves", position, "--json"]));
            let mut moves: Vec<&str> =
                probe["moves"].as_array().unwrap().iter().map(|m| m["san"].as_str().unwrap()).collect();
            moves.sort_unstable();
            assert_eq!(moves, *expected, "{options:?} {extension} after {position:?}");
        }
    }
}

/// Polyglot → JSON Lines: one object per 16-byte entry, in file order, its fields the stored
/// bytes. Games → a book through `convert` is refused, naming `tabiya book`.
#[test]
fn polyglot_to_json_lines_and_games_to_books_through_convert() {
    let bin = sample("famous-games.bin");
    let bytes = std::fs::read(&bin).unwrap();
    let out = tabiya(&["convert", "-q", bin.to_str().unwrap(), "-o", "-", "--to", "jsonl"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let lines: Vec<serde_json::Value> = out
        .stdout
        .split(|&b| b == b'\n')
        .filter(|l| !l.is_empty())
        .map(|l| serde_json::from_slice(l).unwrap())
        .collect();
    assert_eq!(lines.len(), bytes.len() / 16);
    for (line, entry) in lines.iter().zip(bytes.chunks_exact(16)) {
        let hex = |b: &[u8]| b.iter().map(|x| format!("{x:02x}")).collect::<String>();
        assert_eq!(line["key"], hex(&entry[..8]));
        assert_eq!(line["raw_move"], hex(&entry[8..10]));
        assert_eq!(line["weight"], u16::from_be_bytes([entry[10], entry[11]]));
        assert_eq!(line["learn"], u32::from_be_bytes([entry[12], entry[13], entry[14], entry[15]]));
    }
    let dir = tempfile::tempdir().unwrap();
    for book in ["x.bin", "x.kob"] {
        let output = dir.path().join(book);
        let pgn = sample("famous-games.pgn");
        let out = tabiya(&["convert", pgn.to_str().unwrap(), "-o", output.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(2));
        assert!(String::from_utf8_lossy(&out.stderr).contains("tabiya book"));
        assert!(!output.exists());
    }
}
