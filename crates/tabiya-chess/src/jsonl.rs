//! JSON Lines: one [`Game`] a line, for scripts and machine learning pipelines. Every line is a
//! JSON object:
//!
//! ```text
//! {"tags":[["Event","Casual"],["White","Morphy"],…],   every tag, in order, duplicates kept
//!  "start":null,                                       the start FEN; null is the standard start
//!  "chess960":false,
//!  "result":"1-0",
//!  "comments":["…"],                                   before the first move
//!  "moves":[{"uci":"e2e4","san":"e4"},
//!           {"uci":"e7e5","san":"e5","nags":[1],"comments":["…"],
//!            "variations":[{"comments":[],"moves":[{"uci":"c7c5","san":"c5"}]}]},…]}
//! ```
//!
//! A null move is `{"uci":"0000","san":"--"}`; `nags`, `comments` and `variations` are left out
//! of a move that has none. Lines are read back by [`read_game`], which replays every move.
//!
//! JSON text is UTF-8, but a game's tags and comments are the bytes they came as
//! ([`crate::text`]), which old files hold in Latin-1 or Windows-1252. A tag name, tag value or
//! comment that is UTF-8 is a JSON string; one that is not is the object `{"latin1":"…"}`, whose
//! string holds each byte as the character of the same number (U+0000–U+00FF), so every byte
//! comes back as it was (`"Quadros,Andr\u0082"` is the byte 0x82; in Python,
//! `value["latin1"].encode("latin-1")`).
//!
//! ```
//! use tabiya_chess::game::Game;
//! use tabiya_chess::jsonl;
//! use tabiya_chess::pgn::PgnReader;
//!
//! let pgn = b"[White \"Morphy\"]\n\n1. e4 e5 (1... c5 {Sicilian}) 2. Nf3 $1 1-0\n";
//! let game = PgnReader::new(&pgn[..]).next().unwrap()?.game;
//! let mut line = Vec::new();
//! jsonl::write_game(&game, &mut line)?;
//! let text = String::from_utf8(line)?;
//! assert!(text.starts_with(r#"{"tags":[["White","Morphy"]],"start":null,"chess960":false,"result":"1-0""#));
//! assert!(text.contains(r#"{"uci":"g1f3","san":"Nf3","nags":[1]}"#));
//! assert_eq!(jsonl::read_game(text.trim_end())?, game);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::io::{self, Write};

use serde::{Deserialize, Serialize};
use shakmaty::fen::Fen;
use shakmaty::san::SanPlus;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Move, Position};

use crate::game::{Game, GameResult, Line, Node};
use crate::text::{Text, TextBuf};

/// One game as a line of JSON Lines.
#[derive(Serialize, Deserialize)]
struct GameRecord {
    tags: Vec<(JsonText, JsonText)>,
    start: Option<String>,
    chess960: bool,
    result: String,
    comments: Vec<JsonText>,
    moves: Vec<MoveRecord>,
}

/// One move with what is attached to it.
#[derive(Serialize, Deserialize)]
struct MoveRecord {
    uci: String,
    san: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    nags: Vec<u8>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    comments: Vec<JsonText>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    variations: Vec<LineRecord>,
}

/// A variation: the comments before its first move, and its moves.
#[derive(Serialize, Deserialize)]
struct LineRecord {
    comments: Vec<JsonText>,
    moves: Vec<MoveRecord>,
}

/// Text in JSON: a string when it is UTF-8, else `{"latin1": …}` (see the module page).
#[derive(Clone, Serialize, Deserialize)]
#[serde(from = "JsonTextForm", into = "JsonTextForm")]
struct JsonText(TextBuf);

/// The two JSON forms of [`JsonText`].
#[derive(Serialize, Deserialize)]
#[serde(untagged)]
enum JsonTextForm {
    Utf8(String),
    Bytes { latin1: Latin1 },
}

/// Bytes as the string of the characters with the same numbers.
#[derive(Clone, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
struct Latin1(Vec<u8>);

impl TryFrom<String> for Latin1 {
    type Error = String;

    fn try_from(text: String) -> Result<Latin1, String> {
        text.chars()
            .map(|c| u8::try_from(c).map_err(|_| format!("expected Latin-1 characters (U+0000-U+00FF), found {c:?}")))
            .collect::<Result<_, _>>()
            .map(Latin1)
    }
}

impl From<Latin1> for String {
    fn from(bytes: Latin1) -> String {
        bytes.0.iter().map(|&b| char::from(b)).collect()
    }
}

impl From<JsonTextForm> for JsonText {
    fn from(form: JsonTextForm) -> JsonText {
        JsonText(match form {
            JsonTextForm::Utf8(text) => TextBuf::from(text),
            JsonTextForm::Bytes { latin1 } => TextBuf::from(latin1.0),
        })
    }
}

impl From<JsonText> for JsonTextForm {
    fn from(text: JsonText) -> JsonTextForm {
        match String::from_utf8(text.0.into_bytes()) {
            Ok(text) => JsonTextForm::Utf8(text),
            Err(e) => JsonTextForm::Bytes { latin1: Latin1(e.into_bytes()) },
        }
    }
}

/// Texts for JSON.
fn json_texts<T: AsRef<Text>>(texts: &[T]) -> Vec<JsonText> {
    texts.iter().map(|t| JsonText(t.as_ref().to_owned())).collect()
}

/// Texts from JSON.
fn from_json_texts(texts: Vec<JsonText>) -> Vec<TextBuf> {
    texts.into_iter().map(|t| t.0).collect()
}

/// UCI and SAN of a null move.
const NULL_UCI: &str = "0000";
const NULL_SAN: &str = "--";

/// A game that cannot be written or read as JSON Lines.
#[derive(Debug, thiserror::Error)]
pub enum JsonLinesError {
    /// Writing failed.
    #[error(transparent)]
    Io(#[from] io::Error),
    /// The line is not JSON of a game.
    #[error("expected a JSON object of a game: {0}")]
    Json(#[from] serde_json::Error),
    /// The start position is not a legal position.
    #[error("expected a legal start position, found {fen:?} ({reason})")]
    Start {
        /// The FEN.
        fen: String,
        /// Why it is not legal.
        reason: String,
    },
    /// A move is not legal where it is played (`ply` counts from 1 in its line).
    #[error("ply {ply} of its line: expected a legal move, found {found:?}")]
    Move {
        /// The move's ply in its line, from 1.
        ply: usize,
        /// The move.
        found: String,
    },
    /// The result is none of `1-0`, `0-1`, `1/2-1/2`, `*`.
    #[error("expected a result (1-0, 0-1, 1/2-1/2 or *), found {0:?}")]
    Result(String),
}

/// Writes `game` as one line of JSON Lines, its newline included. A move that is not legal
/// where it stands (a `Game` built by hand) is an error, and nothing is written.
pub fn write_game(game: &Game, out: &mut impl Write) -> Result<(), JsonLinesError> {
    let mut text = Vec::with_capacity(1024);
    push_game(game, &mut text)?;
    out.write_all(&text)?;
    Ok(())
}

/// Appends `game` as one line of JSON Lines to `out` (many games can share one buffer); on an
/// error `out` is left as it was.
pub fn push_game(game: &Game, out: &mut Vec<u8>) -> Result<(), JsonLinesError> {
    let start = game.start_position().map_err(|e| JsonLinesError::Start {
        fen: game.start.as_ref().map(ToString::to_string).unwrap_or_default(),
        reason: e.to_string(),
    })?;
    let record = GameRecord {
        tags: game.tags.iter().map(|(n, v)| (JsonText(n.to_owned()), JsonText(v.to_owned()))).collect(),
        start: game.start.as_ref().map(ToString::to_string),
        chess960: game.castling_mode == CastlingMode::Chess960,
        result: game.result.as_pgn().to_owned(),
        comments: json_texts(&game.moves.comments),
        moves: moves_of(&game.moves, start, game.castling_mode)?,
    };
    serde_json::to_writer(&mut *out, &record)?;
    out.push(b'\n');
    Ok(())
}

/// The moves of `line` played from `pos`, with their variations.
fn moves_of(line: &Line, mut pos: Chess, mode: CastlingMode) -> Result<Vec<MoveRecord>, JsonLinesError> {
    let mut moves = Vec::with_capacity(line.nodes.len());
    for (ply, node) in line.nodes.iter().enumerate() {
        let variations = node
            .variations()
            .iter()
            .map(|v| Ok(LineRecord { comments: json_texts(&v.comments), moves: moves_of(v, pos.clone(), mode)? }))
            .collect::<Result<Vec<_>, JsonLinesError>>()?;
        let (uci, san) = match node.mv {
            None => {
                pos = pos.swap_turn().map_err(|_| JsonLinesError::Move { ply: ply + 1, found: NULL_SAN.into() })?;
                (NULL_UCI.to_owned(), NULL_SAN.to_owned())
            }
            Some(m) => {
                if !pos.is_legal(m) {
                    return Err(JsonLinesError::Move { ply: ply + 1, found: format!("{m:?}") });
                }
                let uci = UciMove::from_move(m, mode).to_string();
                let san = SanPlus::from_move_and_play_unchecked(&mut pos, m).to_string();
                (uci, san)
            }
        };
        let comments = json_texts(node.comments());
        moves.push(MoveRecord { uci, san, nags: node.nags().to_vec(), comments, variations });
    }
    Ok(moves)
}

/// Reads one line of JSON Lines back into a game, every move replayed from its SAN (the UCI
/// must name the same move).
pub fn read_game(line: &str) -> Result<Game, JsonLinesError> {
    let record: GameRecord = serde_json::from_str(line)?;
    let castling_mode = if record.chess960 { CastlingMode::Chess960 } else { CastlingMode::Standard };
    let start = match &record.start {
        None => None,
        Some(text) => {
            Some(text.parse::<Fen>().map_err(|e| JsonLinesError::Start { fen: text.clone(), reason: e.to_string() })?)
        }
    };
    let mut game = Game {
        tags: record.tags.iter().map(|(n, v)| (n.0.as_bytes(), v.0.as_bytes())).collect(),
        start,
        castling_mode,
        moves: Line::default(),
        result: GameResult::from_pgn(&record.result).ok_or_else(|| JsonLinesError::Result(record.result.clone()))?,
    };
    let pos = game
        .start_position()
        .map_err(|e| JsonLinesError::Start { fen: record.start.clone().unwrap_or_default(), reason: e.to_string() })?;
    game.moves = line_of(record.comments, record.moves, pos, castling_mode)?;
    Ok(game)
}

/// The line of `moves` replayed from `pos`.
fn line_of(
    comments: Vec<JsonText>,
    moves: Vec<MoveRecord>,
    mut pos: Chess,
    mode: CastlingMode,
) -> Result<Line, JsonLinesError> {
    let mut line = Line { comments: from_json_texts(comments), nodes: Vec::with_capacity(moves.len()) };
    for (ply, record) in moves.into_iter().enumerate() {
        let illegal = || JsonLinesError::Move { ply: ply + 1, found: format!("{} {}", record.uci, record.san) };
        let mut variations = Vec::with_capacity(record.variations.len());
        for v in record.variations {
            variations.push(line_of(v.comments, v.moves, pos.clone(), mode)?);
        }
        let mv = if record.san == NULL_SAN && record.uci == NULL_UCI {
            pos = pos.swap_turn().map_err(|_| illegal())?;
            None
        } else {
            let m = record.san.parse::<SanPlus>().map_err(|_| illegal())?.san.to_move(&pos).map_err(|_| illegal())?;
            if UciMove::from_move(m, mode).to_string() != record.uci || matches!(m, Move::Put { .. }) {
                return Err(illegal());
            }
            pos.play_unchecked(m);
            Some(m)
        };
        let mut node = Node::new(mv);
        if !(record.nags.is_empty() && record.comments.is_empty() && variations.is_empty()) {
            let notes = node.notes_mut();
            (notes.nags, notes.comments, notes.variations) =
                (record.nags, from_json_texts(record.comments), variations);
        }
        line.nodes.push(node);
    }
    Ok(line)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_null_move_and_a_hand_built_illegal_move() {
        let mut game = Game::default();
        game.moves.nodes.push(Node::new(None));
        let mut text = Vec::new();
        push_game(&game, &mut text).unwrap();
        assert!(String::from_utf8_lossy(&text).contains(r#"{"uci":"0000","san":"--"}"#));
        assert_eq!(read_game(std::str::from_utf8(&text).unwrap().trim_end()).unwrap(), game);
        let san: shakmaty::san::San = "e5".parse().unwrap();
        let e5 = san.to_move(&Chess::default().swap_turn().unwrap()).unwrap();
        let illegal =
            Game { moves: Line { comments: Vec::new(), nodes: vec![Node::new(Some(e5))] }, ..Game::default() };
        let mut out = b"kept".to_vec();
        assert!(matches!(push_game(&illegal, &mut out), Err(JsonLinesError::Move { ply: 1, .. })));
        assert_eq!(out, b"kept");
    }
}
