//! The explorer over a real socket: the sample book and the sample games side by side, the
//! page's files, lichess-shaped answers, and requests that are junk (answered with an error
//! status, and the server still answers the next one).
//!
//! Expected counts were made outside tabiya: python-chess 1.11.2 over
//! `samples/famous-games.pgn` (after 1.e4 e5, Nf3 in three games and f4 in one, all won by
//! White; at the start e4 7, d4 3 (+1 =0 -2), Nf3 1 (lost), c4 1 (won); game 0 is
//! Anderssen–Kieseritzky in 45 plies), and `samples/famous-games.bin` is `polyglot make-book`'s
//! book of it (Nf3 weight 6, f4 weight 2).

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::Path;
use std::sync::OnceLock;

use serde_json::Value;
use tabiya_explorer::{Explorer, Server};

fn server() -> SocketAddr {
    static ADDRESS: OnceLock<SocketAddr> = OnceLock::new();
    *ADDRESS.get_or_init(|| {
        let samples = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../samples");
        let mut explorer = Explorer::new();
        explorer.open(&samples.join("famous-games.bin")).unwrap();
        explorer.open(&samples.join("famous-games.pgn")).unwrap();
        let server = Server::bind(("127.0.0.1", 0), explorer).unwrap();
        let address = server.address().unwrap();
        std::thread::spawn(move || server.run(2));
        address
    })
}

/// Sends `request` as it is and returns the status, the content type and the body.
fn send(request: &[u8]) -> (u16, String, Vec<u8>) {
    let mut stream = TcpStream::connect(server()).unwrap();
    stream.write_all(request).unwrap();
    stream.shutdown(std::net::Shutdown::Write).unwrap();
    let mut answer = Vec::new();
    stream.read_to_end(&mut answer).unwrap();
    let end = answer.windows(4).position(|w| w == b"\r\n\r\n").expect("a complete head");
    let head = String::from_utf8(answer[..end].to_vec()).unwrap();
    let status = head[9..12].parse().unwrap();
    let content_type = head.lines().find_map(|l| l.strip_prefix("Content-Type: ")).unwrap_or_default().to_owned();
    (status, content_type, answer[end + 4..].to_vec())
}

fn get(path: &str) -> (u16, Value) {
    let (status, content_type, body) = send(format!("GET {path} HTTP/1.1\r\nHost: x\r\n\r\n").as_bytes());
    assert_eq!(content_type, "application/json", "{path}");
    (status, serde_json::from_slice(&body).unwrap())
}

/// `(san, games, white, draws, black, weight)` of each move of a table.
fn moves(table: &Value) -> Vec<(String, Value, Value, Value, Value, u64)> {
    table["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            let san = m["san"].as_str().unwrap().to_owned();
            (
                san,
                m["games"].clone(),
                m["white"].clone(),
                m["draws"].clone(),
                m["black"].clone(),
                m["weight"].as_u64().unwrap(),
            )
        })
        .collect()
}

#[test]
fn serves_the_page_and_its_files() {
    let (status, content_type, body) = send(b"GET / HTTP/1.1\r\n\r\n");
    assert_eq!((status, content_type.as_str()), (200, "text/html; charset=utf-8"));
    assert!(String::from_utf8(body).unwrap().contains("/explorer.js"));
    for piece in ["wK", "bQ", "wP", "bN"] {
        let (status, content_type, body) = send(format!("GET /pieces/{piece}.svg HTTP/1.0\r\n\r\n").as_bytes());
        assert_eq!((status, content_type.as_str()), (200, "image/svg+xml"));
        assert!(body.starts_with(b"<svg"));
    }
    let (status, _, body) = send(b"HEAD /explorer.js HTTP/1.1\r\n\r\n");
    assert_eq!((status, body.len()), (200, 0));
}

#[test]
fn each_source_answers_for_the_position() {
    let (status, answer) = get("/api/explore?play=e2e4,e7e5");
    assert_eq!(status, 200);
    assert_eq!(answer["fen"], "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2");
    assert_eq!(answer["played"][1]["san"], "e5");
    assert_eq!(answer["legal"].as_array().unwrap().len(), 29);
    let (book, games) = (&answer["sources"][0], &answer["sources"][1]);
    assert_eq!(book["format"], "polyglot");
    let polyglot: Vec<(String, u64)> = moves(book).into_iter().map(|m| (m.0, m.5)).collect();
    assert_eq!(polyglot, [("Nf3".to_owned(), 6), ("f4".to_owned(), 2)]);
    assert_eq!(book["moves"][0]["share"], 0.75);
    assert!(book.get("white").is_none(), "Polyglot counts no games");
    assert_eq!(games["format"], "games");
    let mut counted = moves(games);
    counted.sort_by(|a, b| a.0.cmp(&b.0));
    let expected =
        |san: &str, n: u64| (san.to_owned(), Value::from(n), Value::from(n), Value::from(0), Value::from(0), n);
    assert_eq!(counted, [expected("Nf3", 3), expected("f4", 1)]);
    assert_eq!(
        (&games["white"], &games["draws"], &games["black"]),
        (&Value::from(4), &Value::from(0), &Value::from(0))
    );
    let top = games["topGames"].as_array().unwrap();
    assert_eq!(top.len(), 4, "the four games that reached 1.e4 e5");
    assert!(top.iter().all(|g| g["winner"] == "white"));
}

#[test]
fn black_to_move_counts_by_colour() {
    let (_, answer) = get("/api/explorer/1?play=d2d4");
    // After 1.d4 the three games are Black's to answer: White won one, Black two.
    assert_eq!(
        (&answer["white"], &answer["draws"], &answer["black"]),
        (&Value::from(1), &Value::from(0), &Value::from(2))
    );
    let (wins, losses): (u64, u64) = answer["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| (m["wins"].as_u64().unwrap(), m["losses"].as_u64().unwrap()))
        .fold((0, 0), |(w, l), (a, b)| (w + a, l + b));
    assert_eq!((wins, losses), (2, 1), "wins and losses stay the mover's");
}

#[test]
fn the_game_viewer_reads_the_game_from_its_file() {
    let (status, game) = get("/api/game?source=1&game=0");
    assert_eq!(status, 200);
    let tag = |name: &str| game["tags"].as_array().unwrap().iter().find(|t| t[0] == name).map(|t| t[1].clone());
    assert_eq!(tag("White"), Some(Value::from("Anderssen, Adolf")));
    assert_eq!(game["moves"]["nodes"].as_array().unwrap().len(), 45);
    assert_eq!(game["moves"]["nodes"][0]["san"], "e4");
    assert_eq!(game["moves"]["nodes"][0]["fen"], "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
    assert_eq!(get("/api/game?source=1&game=12").0, 404, "twelve games, numbered from 0");
    assert_eq!(get("/api/game?source=0&game=0").0, 404, "a book has no games");
    assert_eq!(get("/api/game?source=1").0, 400);
}

#[test]
fn bad_positions_are_named() {
    let (status, answer) = get("/api/explore?play=e2e4,e2e5");
    assert_eq!(status, 400);
    assert!(answer["error"].as_str().unwrap().contains("\"e2e5\""), "{answer}");
    let (status, _) = get("/api/explore?fen=8/8/8/8/8/8/8/8%20w%20-%20-");
    assert_eq!(status, 400);
    assert_eq!(get("/api/explorer/9").0, 404);
    assert_eq!(get("/nothing").0, 404);
}

#[test]
fn junk_gets_an_error_status_and_the_server_goes_on() {
    let long = [b"GET /".as_slice(), &vec![b'a'; 40 << 10], b" HTTP/1.1\r\n\r\n"].concat();
    let junk: [&[u8]; 6] = [
        b"\x00\xff\xfe garbage\r\n\r\n",
        b"GET\r\n\r\n",
        b"GET / HTTP/1.1\r\nHost: x\r\n",
        &long,
        b"",
        b"GET /api/explore?play=%zz%ff HTTP/1.1\r\n\r\n",
    ];
    for request in junk {
        let mut stream = TcpStream::connect(server()).unwrap();
        let _ = stream.write_all(request);
        let _ = stream.shutdown(std::net::Shutdown::Write);
        let mut answer = Vec::new();
        let _ = stream.read_to_end(&mut answer);
        assert!(answer.is_empty() || answer.starts_with(b"HTTP/1.1 4"), "{:?}", String::from_utf8_lossy(&answer));
    }
    assert_eq!(send(b"POST /api/explore HTTP/1.1\r\n\r\n").0, 405);
    assert_eq!(get("/api/explore").0, 200);
}
