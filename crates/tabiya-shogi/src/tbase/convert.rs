//! T-BASE problems to and from the [`Kifu`] of KIF, KI2 and CSA, and to JSON.

use serde_json::{Value, json};
use shogi_core::Move;
use tabiya_io::{Codepage, Location};

use super::{Comment, Diagram, Form, Solution};
use crate::board::{self, ATTACKER, DEFENDER};
use crate::notation::japanese::{self, Style};
use crate::notation::{Kifu, sfen};

const COMPLETENESS: [&str; 5] = ["完全", "余早詰", "不詰", "不詰・余早詰", "変長"];

/// The KIF/KI2/CSA record of a problem: tsume headers, the position with the defender's hand
/// written out, the solution `moves` (resolved by the caller), the comment without colour codes.
pub fn to_kifu(diagram: &Diagram, moves: &[Move], comment: Option<&Comment>) -> Kifu {
    let mut kifu = Kifu::new(diagram.position().unwrap_or_else(|_| diagram.board.clone()));
    let mut header = |key: &str, value: String| {
        if !value.is_empty() {
            kifu.headers.push((key.to_owned(), value));
        }
    };
    header("作品番号", format!("{:04}", diagram.number));
    header("作品名", diagram.title.clone());
    header("作者", diagram.author.clone());
    header("発表誌", diagram.source.clone());
    header("発表年月", diagram.date.clone());
    header("手数", diagram.moves.map(|n| n.to_string()).unwrap_or_default());
    let completeness = diagram.completeness.and_then(|c| COMPLETENESS.get(usize::from(c)));
    header("完全性", completeness.map(|c| c.to_string()).unwrap_or_default());
    header("備考", diagram.note.clone());
    kifu.moves = moves.to_vec();
    kifu.end = kifu.written_end();
    if let Some(comment) = comment {
        kifu.comments = comment.plain().lines().map(str::to_owned).collect();
    }
    kifu
}

/// The longest prefix of `text` that fits `bytes` bytes of Shift-JIS (unmappable characters
/// become `？`), and whether anything was cut.
fn fit(text: &str, bytes: usize) -> (String, bool) {
    let mut out = String::new();
    let mut used = 0;
    for c in text.chars() {
        let mut buf = [0u8; 4];
        let c = if Codepage::ShiftJis.encode(c.encode_utf8(&mut buf)).is_ok() { c } else { '？' };
        let len = Codepage::ShiftJis.encode(c.encode_utf8(&mut buf)).map_or(2, |b| b.len());
        if used + len > bytes {
            return (out, true);
        }
        used += len;
        out.push(c);
    }
    (out, false)
}

/// A T-BASE problem built from a KIF/KI2/CSA record: sente is the attacker, sente's hand the
/// attacker's hand (gote holds the rest, as in every tsume), the header fields mapped back, the
/// mate-position fields computed by replaying the moves. Returns the notes on what did not fit.
pub fn from_kifu(kifu: &Kifu, number: u16) -> (Diagram, Solution, Option<Comment>, Vec<String>) {
    let mut notes = Vec::new();
    let mut board = kifu.start.clone();
    *board.hand_of_a_player_mut(ATTACKER) = shogi_core::Hand::new();
    *board.hand_of_a_player_mut(DEFENDER) = shogi_core::Hand::new();
    let number = kifu.header("作品番号").and_then(|n| n.trim().parse().ok()).filter(|&n| n <= 9999).unwrap_or(number);
    let mut diagram = Diagram::new(number, board, kifu.start.hand_of_a_player(ATTACKER));
    if !kifu.move_comments.is_empty() {
        notes.push(format!("{} comment lines on moves left out: T-BASE has none", kifu.move_comments.len()));
    }
    if kifu.start.side_to_move() != ATTACKER {
        notes.push("gote to move: T-BASE problems start with the attacker (sente)".to_owned());
    }
    let mut text = |key: &str, width: usize| {
        let (value, cut) = fit(kifu.header(key).unwrap_or(""), width);
        if cut {
            notes.push(format!("{key} cut to {width} bytes"));
        }
        value
    };
    diagram.title = text("作品名", 10);
    diagram.author = text("作者", 12);
    diagram.source = text("発表誌", 20);
    diagram.date = text("発表年月", 6);
    diagram.note = text("備考", 18);
    diagram.completeness =
        kifu.header("完全性").and_then(|c| COMPLETENESS.iter().position(|&k| k == c.trim())).map(|c| c as u8);
    diagram.moves = Some(kifu.moves.len() as u16);
    let mut end = kifu.start.clone();
    let mut previous = None;
    let mut written = Vec::new();
    for &mv in &kifu.moves {
        written.push(japanese::write(&end, previous, mv, Style::Tbase));
        if end.make_move(mv).is_none() {
            break;
        }
        previous = Some(mv.to());
    }
    if !kifu.moves.is_empty() && board::is_mate(&end) {
        diagram.form = Form::ThreeLine;
        diagram.final_king = end.king_position(DEFENDER);
        diagram.final_pieces = Some(end.occupied_bitboard().count());
        diagram.final_attacker_pieces = Some(end.player_bitboard(ATTACKER).count());
    }
    let location = Location::default();
    let solution =
        Solution { number, moves: written, length: Some(kifu.moves.len() as u16), location: location.clone() };
    let comment = (!kifu.comments.is_empty()).then(|| Comment { number, lines: kifu.comments.clone(), location });
    (diagram, solution, comment, notes)
}

/// One problem as a JSON object (the `.jsonl` export): every field, the SFEN, the solution in
/// USI and T-BASE notation, the comment with its colour codes as written and cut into colour
/// spans (`$6` → `"yellow"`).
pub fn to_json(diagram: &Diagram, moves: &[Move], solution: Option<&Solution>, comment: Option<&Comment>) -> Value {
    let square = |s: Option<shogi_core::Square>| s.map(|s| format!("{}{}", s.file(), s.rank()));
    let start = diagram.position().ok();
    json!({
        "number": diagram.number,
        "form": diagram.form,
        "sfen": start.as_ref().map(sfen::write),
        "author": diagram.author,
        "author_code": diagram.author_code,
        "source": diagram.source,
        "source_code": diagram.source_code,
        "source_number": diagram.source_number,
        "date": diagram.date,
        "king_square": square(diagram.king_square()),
        "moves": diagram.moves,
        "originality": diagram.originality,
        "note": diagram.note,
        "title": diagram.title,
        "jissen": diagram.jissen,
        "completeness": diagram.completeness,
        "prizes": diagram.prizes,
        "original_source": diagram.original_source,
        "final_king": square(diagram.final_king),
        "final_pieces": diagram.final_pieces,
        "final_attacker_pieces": diagram.final_attacker_pieces,
        "index": String::from_utf8_lossy(&diagram.index),
        "tail": String::from_utf8_lossy(&diagram.tail),
        "solution_usi": moves.iter().map(|&m| board::usi(m)).collect::<Vec<_>>(),
        "solution": solution.map(|s| s.moves.concat()),
        "comment": comment.map(|c| c.lines.join("\n")),
        "comment_spans": comment.map(|c| c.spans().into_iter().map(|(colour, text)| json!({"colour": colour, "text": text})).collect::<Vec<_>>()),
    })
}
