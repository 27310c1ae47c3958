//! Opening books: the model every book format reads into and writes from, the one builder
//! that makes books from games, and one interface to probe any book on disk.
//!
//! **The model.** A book is positions, each with the moves played from it. Two shapes of it:
//!
//! - [`Book`], what the builder makes from games: positions identified by their Polyglot
//!   Zobrist key ([`position_key`]), each move with its statistics from the point of view of
//!   the side that plays it ([`MoveStats`]: games, wins, draws, losses), kept this small
//!   because builds hold millions of them. It carries the position itself too, so that
//!   formats keyed by normalised positions can encode it; a book for Polyglot output alone is
//!   built without positions (`BuildOptions::keep_positions`).
//! - [`NormalizedBook`], what every book → book conversion passes through: positions keyed by
//!   their normalised form ([`crate::boardcode::Normalized`], White to move, maybe mirrored:
//!   the key CTG and Kvetka share), each with its W/D/L for the side to move ([`Outcome`]),
//!   its moves ([`NormalizedMove`]: the move, a weight, CTG's annotation byte, Polyglot's
//!   learn field) and the format's raw fields (CTG's statistics block with its ratings and
//!   colours, Kvetka's comment). The formats are its adapters: `ctg::read_model`,
//!   `kvetka::convert::read_model_from` and `polyglot::read_model` read into it;
//!   `polyglot::entries_of_model` and `kvetka::convert::write_model` write from it. So CTG →
//!   Polyglot, CTG → Kvetka, Kvetka → Polyglot and Polyglot → Kvetka are each one reader and
//!   one writer. Merging books of one format (Polyglot `merge-book`, Kvetka with Kvetka)
//!   stays on the format's own entries or elements: it keeps every byte, including what the
//!   model does not know (Polyglot positions no move reaches, Kvetka's game references).
//!
//! **Weights.** A move's weight from a book's results is the mover's 2·wins + draws in the
//! position it leads to ([`results_weight`]), found in the model under any of its forms. The
//! Kvetka reader weighs by it; the CTG reader by `ctg::Weights`, whose `Raw` is that rule and
//! whose `Play` adds CTG's annotations and colours. The Polyglot reader keeps the stored
//! weights, and the Polyglot writer writes the model's, scaled per position to 16 bits.
//!
//! **Orientations.** A normalised position stands for up to four real ones (colour flip, and
//! the left–right mirror when nobody can castle). Where the model becomes a book keyed by
//! real positions (the Polyglot writer), every orientation is written:
//! [`Normalized::orientations`](crate::boardcode::Normalized::orientations) is the one place
//! that decides it. CTG and Kvetka need no choice (same normalisation). The other way, from
//! Polyglot, only positions reachable from the start through book moves can be read: a
//! Polyglot key is a hash, so its position is found only by playing to it
//! (`polyglot::read_model`, which counts the positions it does not reach). Books built from
//! games hold the positions the games reached, each format under its own key.
//!
//! **The builder.** [`BookBuilder`] and [`build_from_pgn`] count every main-line move up to
//! a ply limit, for the games the [`EloFilter`] lets in; `polyglot::make_from_pgn` writes
//! `polyglot make-book`'s weights from it. Kvetka's builder applies the same Elo rule and
//! ply limit from its header (`kvetka::Header::elo_filter`). Both builds run on one engine
//! (`engine`: pieces sorted by key, split into key ranges merged on every thread, handed on
//! in key order); what they count differs (see there).
//!
//! **Probing.** [`BookFile::open`] opens a Polyglot, CTG or Kvetka book and
//! [`BookFile::probe`] answers with [`tabiya_io::report::Probe`]: the moves in the book's own
//! order, each with its weight and, where the book counts games, W/D/L from the mover's view.
//!
//! ```
//! use tabiya_chess::book::BookFile;
//!
//! let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../samples/famous-games.bin");
//! let book = BookFile::open(path.as_ref())?;
//! let after_e4_e5 = tabiya_chess::book::probe_position(None, Some("e4 e5")).unwrap();
//! let probe = book.probe(&after_e4_e5)?;
//! assert!(probe.found);
//! let moves: Vec<(&str, u64)> = probe.moves.iter().map(|m| (m.san.as_str(), m.weight)).collect();
//! // Nf3 won three of the sample's games, f4 one: Polyglot's weight is 2·wins + draws.
//! assert_eq!(moves, [("Nf3", 6), ("f4", 2)]);
//! # Ok::<(), tabiya_chess::book::BookError>(())
//! ```
//!
//! Building a book in memory from games:
//!
//! ```
//! use tabiya_chess::book::{BookBuilder, BuildOptions};
//! use tabiya_chess::pgn::PgnReader;
//!
//! let pgn = b"1. e4 e5 2. Nf3 1-0\n\n1. e4 c5 1/2-1/2\n\n1. d4 d5 0-1\n";
//! let mut builder = BookBuilder::new(BuildOptions::default());
//! for game in PgnReader::new(&pgn[..]) {
//!     builder.add_game(&game?.game);
//! }
//! let book = builder.finish();
//! let start = book.get(&shakmaty::Chess::default()).expect("the start position is in the book");
//! assert_eq!(start.games(), 3);
//! assert_eq!(start.position(), Some(shakmaty::Chess::default()));
//! let e4 = &start.moves[0];
//! assert_eq!((e4.games, e4.wins, e4.draws, e4.losses), (2, 1, 1, 0));
//! # Ok::<(), tabiya_chess::pgn::PgnError>(())
//! ```

mod build;
pub(crate) mod engine;
mod file;
mod filter;
mod normalized;
mod packed;

use shakmaty::zobrist::{Zobrist64, ZobristValue};
use shakmaty::{CastlingSide, Chess, Color, EnPassantMode, Move, Position, Role, Square};

use crate::view::PositionView;

pub use build::{
    BookBuilder, BuildOptions, BuildSummary, GamesBuild, build_from_games, build_from_pgn, build_from_pgn_in_ranges,
    build_from_pgn_stream, build_from_pgn_stream_in_ranges,
};
pub(crate) use build::{
    MoveTally, RangeOutput, count_from_pgn_in_ranges, count_from_pgn_stream_in_ranges, polyglot_move,
};
pub use file::{BookError, BookFile};
pub use filter::EloFilter;
pub use normalized::{
    ChildKeys, MoveOrder, NormalizedBook, NormalizedMove, NormalizedPosition, Outcome, results_weight, stored_form,
};
pub use packed::PackedPosition;

/// The Polyglot key of a position: shakmaty's `Zobrist64` uses Polyglot's Random64 table, and
/// Polyglot counts an en-passant square only when a pawn of the side to move stands beside
/// the pawn that just moved, whether or not the capture is legal (`PseudoLegal`).
pub fn position_key(pos: &Chess) -> u64 {
    pos.zobrist_hash::<Zobrist64>(EnPassantMode::PseudoLegal).0
}

/// Polyglot keys of the positions of a game, worked out move by move: the pieces' part of
/// the key follows each move; the side to move, castling rights and en-passant file are
/// read from the position itself (a few bits). Gives [`position_key`] for every position.
#[derive(Debug, Clone, Copy)]
pub(crate) struct KeyTrail {
    pieces: u64,
}

impl KeyTrail {
    pub(crate) fn new(start: &Chess) -> KeyTrail {
        KeyTrail { pieces: position_key(start) ^ key_state(start) }
    }

    /// The key of `pos`, the position reached by the moves given to [`KeyTrail::play`].
    pub(crate) fn key(&self, pos: &impl PositionView) -> u64 {
        self.pieces ^ key_state(pos)
    }

    /// Follows `mv`, played from `pos`.
    pub(crate) fn play(&mut self, pos: &impl PositionView, mv: Move) {
        let piece = |square, role: Role, color| Zobrist64::zobrist_for_piece(square, role.of(color)).0;
        let turn = pos.turn();
        self.pieces ^= match mv {
            Move::Normal { role, from, capture, to, promotion } => {
                piece(from, role, turn)
                    ^ piece(to, promotion.unwrap_or(role), turn)
                    ^ capture.map_or(0, |captured| piece(to, captured, !turn))
            }
            Move::EnPassant { from, to } => {
                let taken = Square::from_coords(to.file(), from.rank());
                piece(from, Role::Pawn, turn) ^ piece(to, Role::Pawn, turn) ^ piece(taken, Role::Pawn, !turn)
            }
            Move::Castle { king, rook } => {
                let side = if king < rook { CastlingSide::KingSide } else { CastlingSide::QueenSide };
                piece(king, Role::King, turn)
                    ^ piece(side.king_to(turn), Role::King, turn)
                    ^ piece(rook, Role::Rook, turn)
                    ^ piece(side.rook_to(turn), Role::Rook, turn)
            }
            Move::Put { role, to } => piece(to, role, turn),
        };
    }
}

/// The part of a Polyglot key that is not the pieces: side to move, castling rights,
/// en-passant file.
fn key_state(pos: &impl PositionView) -> u64 {
    let mut key = if pos.turn() == Color::White { Zobrist64::zobrist_for_white_turn().0 } else { 0 };
    for color in Color::ALL {
        for side in CastlingSide::ALL {
            if pos.castles().has(color, side) {
                key ^= Zobrist64::zobrist_for_castling_right(color, side).0;
            }
        }
    }
    if let Some(square) = pos.pseudo_legal_ep_square() {
        key ^= Zobrist64::zobrist_for_en_passant_file(square.file()).0;
    }
    key
}

/// One move of a book position with the games that played it, counted from the point of view
/// of the side that plays it. `games - wins - draws - losses` games had no known result.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MoveStats {
    /// The move.
    pub mv: Move,
    /// Games that played it.
    pub games: u32,
    /// Games the mover won.
    pub wins: u32,
    /// Drawn games.
    pub draws: u32,
    /// Games the mover lost.
    pub losses: u32,
}

impl MoveStats {
    /// A move not counted yet.
    pub fn new(mv: Move) -> MoveStats {
        MoveStats { mv, games: 0, wins: 0, draws: 0, losses: 0 }
    }

    /// Adds another count of the same move.
    pub fn add(&mut self, other: &MoveStats) {
        self.games += other.games;
        self.wins += other.wins;
        self.draws += other.draws;
        self.losses += other.losses;
    }
}

/// A stored position: its key, side to move, the position, and where its moves are.
#[derive(Debug, Clone, PartialEq, Eq)]
struct PositionRecord {
    key: u64,
    turn: Color,
    /// Index into `Book::packed`, or [`NO_POSITION`].
    packed: u32,
    first_move: u32,
    move_count: u32,
}

/// `PositionRecord::packed` of a book built without positions (`BuildOptions::keep_positions`).
const NO_POSITION: u32 = u32::MAX;

/// Positions sorted by [`position_key`], each with its moves in the order they were first
/// met. Built by [`BookBuilder`]; read-only afterwards.
#[derive(Debug, Clone, Default)]
pub struct Book {
    positions: Vec<PositionRecord>,
    packed: Vec<PackedPosition>,
    moves: Vec<MoveStats>,
}

/// One position of a [`Book`] with its moves.
#[derive(Debug, Clone, Copy)]
pub struct BookPosition<'a> {
    /// The position's Polyglot key.
    pub key: u64,
    turn: Color,
    packed: Option<&'a PackedPosition>,
    /// Its moves, in the order they were first met.
    pub moves: &'a [MoveStats],
}

impl BookPosition<'_> {
    /// The position (halfmove clock 0, move number 1: a book does not know them); `None` in a
    /// book built without positions (`BuildOptions::keep_positions`).
    pub fn position(&self) -> Option<Chess> {
        self.packed.map(PackedPosition::to_position)
    }

    /// The side to move.
    pub fn turn(&self) -> Color {
        self.turn
    }

    /// Games played from the position.
    pub fn games(&self) -> u64 {
        self.moves.iter().map(|m| u64::from(m.games)).sum()
    }

    /// Wins of the side to move in this position.
    pub fn wins(&self) -> u64 {
        self.moves.iter().map(|m| u64::from(m.wins)).sum()
    }

    /// Drawn games from the position.
    pub fn draws(&self) -> u64 {
        self.moves.iter().map(|m| u64::from(m.draws)).sum()
    }

    /// Losses of the side to move in this position.
    pub fn losses(&self) -> u64 {
        self.moves.iter().map(|m| u64::from(m.losses)).sum()
    }
}

/// Books are equal when they hold the same positions with the same moves in the same order,
/// however their storage is laid out.
impl PartialEq for Book {
    fn eq(&self, other: &Book) -> bool {
        self.len() == other.len()
            && self
                .positions()
                .zip(other.positions())
                .all(|(a, b)| a.key == b.key && a.turn == b.turn && a.packed == b.packed && a.moves == b.moves)
    }
}

impl Eq for Book {}

impl Book {
    fn view<'a>(&'a self, record: &'a PositionRecord) -> BookPosition<'a> {
        let start = record.first_move as usize;
        BookPosition {
            key: record.key,
            turn: record.turn,
            packed: self.packed.get(record.packed as usize),
            moves: &self.moves[start..start + record.move_count as usize],
        }
    }

    /// The position with this key.
    pub fn get_key(&self, key: u64) -> Option<BookPosition<'_>> {
        let i = self.positions.binary_search_by_key(&key, |p| p.key).ok()?;
        Some(self.view(&self.positions[i]))
    }

    /// The position `pos`, looked up by its key.
    pub fn get(&self, pos: &Chess) -> Option<BookPosition<'_>> {
        self.get_key(position_key(pos))
    }

    /// Every position, in ascending key order (the order of Polyglot books).
    pub fn positions(&self) -> impl ExactSizeIterator<Item = BookPosition<'_>> {
        self.positions.iter().map(|p| self.view(p))
    }

    /// The positions `range` of [`Book::positions`].
    pub(crate) fn positions_in(&self, range: std::ops::Range<usize>) -> impl Iterator<Item = BookPosition<'_>> {
        self.positions[range].iter().map(|p| self.view(p))
    }

    /// Number of positions.
    pub fn len(&self) -> usize {
        self.positions.len()
    }

    /// No position at all.
    pub fn is_empty(&self) -> bool {
        self.positions.is_empty()
    }

    /// Number of (position, move) pairs.
    pub fn move_count(&self) -> usize {
        self.moves.len()
    }

    /// The positions of both books; a position in both has this book's moves first, then
    /// `later`'s other moves, each move's statistics added up. A linear merge of the two
    /// key-sorted position lists.
    pub fn merge(self, later: Book) -> Book {
        if self.is_empty() {
            return later;
        }
        let mut merged = Book {
            positions: Vec::with_capacity(self.positions.len() + later.positions.len()),
            packed: Vec::with_capacity(self.positions.len() + later.positions.len()),
            moves: Vec::with_capacity(self.moves.len() + later.moves.len()),
        };
        let (mut a, mut b) = (self.positions().peekable(), later.positions().peekable());
        loop {
            let (first, second) = match (a.peek(), b.peek()) {
                (None, None) => break,
                (Some(x), Some(y)) if x.key == y.key => (a.next(), b.next()),
                (Some(x), Some(y)) if x.key > y.key => (None, b.next()),
                (Some(_), _) => (a.next(), None),
                (None, _) => (None, b.next()),
            };
            let Some(head) = first.or(second) else { break };
            let first_move = merged.moves.len();
            merged.moves.extend_from_slice(first.map_or(&[][..], |p| p.moves));
            for stats in second.map_or(&[][..], |p| p.moves) {
                match merged.moves[first_move..].iter_mut().find(|m| m.mv == stats.mv) {
                    Some(existing) => existing.add(stats),
                    None => merged.moves.push(*stats),
                }
            }
            let packed = head.packed.map_or(NO_POSITION, |packed| {
                merged.packed.push(*packed);
                merged.packed.len() as u32 - 1
            });
            merged.positions.push(PositionRecord {
                key: head.key,
                turn: head.turn,
                packed,
                first_move: first_move as u32,
                move_count: (merged.moves.len() - first_move) as u32,
            });
        }
        merged
    }

    /// Books whose keys ascend from one to the next, joined.
    fn concat(books: Vec<Book>) -> Book {
        let total = |len: fn(&Book) -> usize| books.iter().skip(1).map(len).sum::<usize>();
        let (positions, packed, moves) =
            (total(|b| b.positions.len()), total(|b| b.packed.len()), total(|b| b.moves.len()));
        let mut books = books.into_iter();
        let mut book = books.next().unwrap_or_default();
        // Room for all at once: growing by doubling would copy the book again and leave up to
        // twice its size allocated.
        book.positions.reserve_exact(positions);
        book.packed.reserve_exact(packed);
        book.moves.reserve_exact(moves);
        for later in books {
            let (moves, packed) = (book.moves.len() as u32, book.packed.len() as u32);
            let shift = |p: PositionRecord| PositionRecord {
                first_move: p.first_move + moves,
                packed: if p.packed == NO_POSITION { NO_POSITION } else { p.packed + packed },
                ..p
            };
            book.positions.extend(later.positions.into_iter().map(shift));
            book.packed.extend_from_slice(&later.packed);
            book.moves.extend_from_slice(&later.moves);
        }
        book
    }

    /// Bytes of memory the book holds.
    pub fn memory_bytes(&self) -> usize {
        self.positions.capacity() * size_of::<PositionRecord>()
            + self.packed.capacity() * size_of::<PackedPosition>()
            + self.moves.capacity() * size_of::<MoveStats>()
    }
}

/// The position a probe asks for: a FEN, or moves played from the start (SAN or UCI,
/// separated by spaces; move numbers such as `1.` and check marks are ignored). The error
/// says which part is wrong.
pub fn probe_position(fen: Option<&str>, moves: Option<&str>) -> Result<Chess, String> {
    use shakmaty::fen::Fen;
    use shakmaty::san::SanPlus;
    use shakmaty::uci::UciMove;

    if let Some(fen) = fen {
        let parsed: Fen = fen.parse().map_err(|e| format!("FEN {fen:?}: {e}"))?;
        return parsed.into_position(shakmaty::CastlingMode::Standard).map_err(|e| format!("FEN {fen:?}: {e}"));
    }
    let mut pos = Chess::default();
    for token in moves.unwrap_or_default().split_whitespace() {
        let text = token.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.');
        if text.is_empty() {
            continue;
        }
        let by_san = text.parse::<SanPlus>().ok().and_then(|san| san.san.to_move(&pos).ok());
        let by_uci = || text.parse::<UciMove>().ok().and_then(|uci| uci.to_move(&pos).ok());
        let mv =
            by_san.or_else(by_uci).ok_or_else(|| format!("{text:?} is not a legal move after {}", fen_of(&pos)))?;
        pos.play_unchecked(mv);
    }
    Ok(pos)
}

/// FEN of a position, en-passant square only when the capture is legal (python-chess style).
pub fn fen_of(pos: &Chess) -> String {
    shakmaty::fen::Fen::from_position(pos, EnPassantMode::Legal).to_string()
}

#[cfg(test)]
mod tests {
    use shakmaty::CastlingMode;
    use shakmaty::fen::Fen;
    use tabiya_testdata::Xorshift;

    use super::*;

    #[test]
    fn key_trails_give_every_position_its_key() {
        let mut rng = Xorshift::new(7);
        // The start, and positions with castling on both sides, en passant and promotions.
        let fens = [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3pPk/8/4P3/8 b - g3 0 1",
            "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
        ];
        let mut positions = 0;
        for game in 0..200 {
            let fen: Fen = fens[game % fens.len()].parse().unwrap();
            let mut pos: Chess = fen.into_position(CastlingMode::Standard).unwrap();
            let mut trail = KeyTrail::new(&pos);
            for _ in 0..150 {
                assert_eq!(trail.key(&pos), position_key(&pos), "{}", fen_of(&pos));
                positions += 1;
                let moves = pos.legal_moves();
                let Some(&mv) = moves.get(rng.below(moves.len().max(1))) else { break };
                trail.play(&pos, mv);
                pos.play_unchecked(mv);
            }
        }
        assert!(positions > 10_000, "{positions}");
    }
}
