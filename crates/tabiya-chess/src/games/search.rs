//! Games by what their main line reaches: a position ([`PositionQuery`], `--fen`) or a
//! material balance ([`MaterialQuery`], `--material KRPkr`). Both test any [`Game`] by replay;
//! a SCID database is searched for a position without decoding most of its games
//! ([`search_scid`]).
//!
//! Positions are the same by the chess-openings rule: pieces, side to move, castling rights, and
//! the en passant square only where a capture is legal.
//!
//! A replay stops as soon as the target cannot be reached any more (`Reach`): pawns never
//! return to their home squares, and neither side ever gains pawns or men. Most games leave a
//! position's reach within a few moves of it.

use rayon::prelude::*;
use shakmaty::fen::Fen;
use shakmaty::{Bitboard, Board, ByColor, ByRole, CastlingMode, Chess, Color, EnPassantMode, Position, Rank, Role};
use tabiya_io::{Diagnostic, Unit};

use crate::game::{Game, Node};
use crate::games::index::{Candidate, ScidPositions};
use crate::scid::Database;
use crate::scid::index::IndexEntry;

/// A query that could not be made from its text.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum QueryError {
    /// The FEN is not a legal chess position.
    #[error("--fen {fen:?}: {why}")]
    Fen {
        /// The text given.
        fen: String,
        /// What is wrong with it.
        why: String,
    },
    /// The material signature is not one.
    #[error("--material {text:?}: {why}")]
    Material {
        /// The text given.
        text: String,
        /// What is wrong with it.
        why: String,
    },
}

/// What a position must still have for a target to be reachable from it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Reach {
    /// The target's pawns on their home squares (White's on the second rank, Black's on the
    /// seventh): a pawn that leaves never comes back, and no other pawn can take its place.
    pub(super) home: Bitboard,
    /// Pawns per side: never more.
    pub(super) pawns: ByColor<u32>,
    /// Men per side (promotions change a pawn into a piece): never more.
    pub(super) men: ByColor<u32>,
}

impl Reach {
    pub(super) fn of(board: &Board) -> Reach {
        Reach {
            home: home_pawns(board),
            pawns: ByColor::new_with(|c| (board.pawns() & board.by_color(c)).count() as u32),
            men: ByColor::new_with(|c| board.by_color(c).count() as u32),
        }
    }

    /// Whether a game standing on `board` can still reach the target.
    #[inline]
    fn allows(&self, board: &Board) -> bool {
        home_pawns(board) & self.home == self.home
            && Color::ALL.into_iter().all(|c| {
                let ours = board.by_color(c);
                (board.pawns() & ours).count() as u32 >= *self.pawns.get(c) && ours.count() as u32 >= *self.men.get(c)
            })
    }
}

/// Pawns on their own starting squares.
#[inline]
fn home_pawns(board: &Board) -> Bitboard {
    board.pawns()
        & (board.white() & Bitboard::from_rank(Rank::Second) | board.black() & Bitboard::from_rank(Rank::Seventh))
}

/// Pawns at home as SCID numbers them: 15 − file on White's second rank, 7 − file on Black's
/// seventh.
pub(super) fn scid_home_numbers(home: Bitboard) -> u16 {
    home.into_iter().fold(0, |set, sq| {
        set | 1 << if sq.rank() == Rank::Second { 15 - sq.file() as u16 } else { 7 - sq.file() as u16 }
    })
}

/// The first ply (0 = the start) of the main line from `start` whose position `hit` accepts,
/// replaying while `reach` allows. An illegal move ends the replay.
fn first_ply(start: Chess, nodes: &[Node], reach: &Reach, hit: impl Fn(&Chess) -> bool) -> Option<usize> {
    let mut pos = start;
    for (ply, node) in std::iter::once(None).chain(nodes.iter().map(Some)).enumerate() {
        if let Some(node) = node {
            pos = match node.mv {
                Some(m) => pos.play(m).ok()?,
                None => crate::game::pass(&pos)?,
            };
        }
        if !reach.allows(pos.board()) {
            return None;
        }
        if hit(&pos) {
            return Some(ply);
        }
    }
    None
}

/// Games whose main line reaches a position (`--fen`), by any move order.
#[derive(Debug, Clone)]
pub struct PositionQuery {
    target: Chess,
    pub(super) reach: Reach,
    /// The target's pawns at home as SCID numbers them (15 − file on White's second rank,
    /// 7 − file on Black's seventh).
    pub(super) home_numbers: u16,
}

impl PositionQuery {
    /// The query for a position.
    pub fn new(target: Chess) -> PositionQuery {
        let reach = Reach::of(target.board());
        PositionQuery { home_numbers: scid_home_numbers(reach.home), reach, target }
    }

    /// The query for a FEN (standard chess; Chess960 castling rights in Shredder or X-FEN
    /// form are read as such).
    pub fn from_fen(fen: &str) -> Result<PositionQuery, QueryError> {
        let error = |why: String| QueryError::Fen { fen: fen.to_owned(), why };
        let parsed: Fen = fen.trim().parse().map_err(|e: shakmaty::fen::ParseFenError| error(e.to_string()))?;
        let target = match parsed.clone().into_position(CastlingMode::Standard) {
            Ok(target) => target,
            Err(_) => parsed.into_position(CastlingMode::Chess960).map_err(|e| error(e.to_string()))?,
        };
        Ok(PositionQuery::new(target))
    }

    /// The position looked for.
    pub fn target(&self) -> &Chess {
        &self.target
    }

    /// Whether `pos` is the target: pieces, side to move, castling rights, legal en passant.
    #[inline]
    pub fn is_target(&self, pos: &Chess) -> bool {
        pos.board() == self.target.board()
            && pos.turn() == self.target.turn()
            && pos.castles().castling_rights() == self.target.castles().castling_rights()
            && pos.ep_square(EnPassantMode::Legal) == self.target.ep_square(EnPassantMode::Legal)
    }

    /// The first ply of the game's main line (0 = its start) that stands on the target.
    pub fn find(&self, game: &Game) -> Option<usize> {
        first_ply(game.start_position().ok()?, &game.moves.nodes, &self.reach, |pos| self.is_target(pos))
    }

    /// Whether the game's main line reaches the target.
    pub fn matches(&self, game: &Game) -> bool {
        self.find(game).is_some()
    }

    /// Whether a SCID game can reach the target by its index entry alone: the order its pawns
    /// left their home squares (SCID's home-pawn list, for games from the standard position)
    /// and, without promotions, its final material (material only goes down).
    pub fn may_match_scid(&self, entry: &IndexEntry) -> bool {
        /// SCID's flags: the game starts from a FEN (IDX_FLAG_START), a pawn promotes
        /// (IDX_FLAG_PROMO).
        const FLAG_START: u32 = 1;
        const FLAG_PROMOTION: u32 = 1 << 1;
        if entry.flags & FLAG_START == 0 && !self.home_pawns_may_match(entry) {
            return false;
        }
        entry.flags & FLAG_PROMOTION != 0 || self.final_material_may_match(entry.material)
    }

    /// The first pawns to leave home in the game are exactly those gone from the target's home
    /// squares. SCID numbers a pawn 15 − file on White's second rank, 7 − file on Black's seventh.
    fn home_pawns_may_match(&self, entry: &IndexEntry) -> bool {
        let gone = !self.home_numbers;
        let count = gone.count_ones() as usize;
        if usize::from(entry.home_pawn_count) < count {
            return false;
        }
        let first = (0..count).fold(0u16, |set, n| {
            let byte = entry.home_pawns[n / 2];
            set | 1 << if n % 2 == 0 { byte >> 4 } else { byte & 15 }
        });
        first == gone
    }

    /// No side ends with more of a piece kind than the target has (SCID's signature caps
    /// pieces at 3 and pawns at 15, so a capped count is a lower bound, which is enough).
    fn final_material_may_match(&self, signature: u32) -> bool {
        let material = self.target.board().material();
        [(Color::White, signature >> 12), (Color::Black, signature)].into_iter().all(|(color, side)| {
            let has = material.get(color);
            let fields = [
                (Role::Queen, 10, 3),
                (Role::Rook, 8, 3),
                (Role::Bishop, 6, 3),
                (Role::Knight, 4, 3),
                (Role::Pawn, 0, 15),
            ];
            fields.into_iter().all(|(role, shift, mask)| u32::from(*has.get(role)) >= (side >> shift) & mask)
        })
    }
}

/// Games whose main line reaches a material balance (`--material KRPkr`): exactly these men,
/// wherever they stand, either side to move.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MaterialQuery {
    material: ByColor<ByRole<u8>>,
    reach: Reach,
}

impl MaterialQuery {
    /// Reads a signature: White's men in capitals, Black's in small letters (`K Q R B N P`),
    /// in any order, one king each (`KRPkr`: king, rook and pawn against king and rook).
    pub fn parse(text: &str) -> Result<MaterialQuery, QueryError> {
        let error = |why: &str| QueryError::Material { text: text.to_owned(), why: why.to_owned() };
        let mut material = ByColor::<ByRole<u8>>::default();
        for c in text.trim().chars() {
            let piece = shakmaty::Piece::from_char(c)
                .ok_or_else(|| error("letters K Q R B N P (White) and k q r b n p (Black) only"))?;
            let count = material.get_mut(piece.color).get_mut(piece.role);
            *count = count.checked_add(1).filter(|&n| n <= 16).ok_or_else(|| error("at most 16 of a kind"))?;
        }
        if material.white.king != 1 || material.black.king != 1 {
            return Err(error("one king a side (K and k)"));
        }
        if material.iter().any(|side| side.iter().map(|&n| u32::from(n)).sum::<u32>() > 16 || side.pawn > 8) {
            return Err(error("at most 16 men and 8 pawns a side"));
        }
        let reach = Reach {
            home: Bitboard::EMPTY,
            pawns: ByColor::new_with(|c| u32::from(material.get(c).pawn)),
            men: ByColor::new_with(|c| material.get(c).iter().map(|&n| u32::from(n)).sum()),
        };
        Ok(MaterialQuery { material, reach })
    }

    /// The first ply of the game's main line (0 = its start) with exactly this material.
    pub fn find(&self, game: &Game) -> Option<usize> {
        first_ply(game.start_position().ok()?, &game.moves.nodes, &self.reach, |pos| {
            pos.board().material() == self.material
        })
    }

    /// Whether the game's main line reaches this material.
    pub fn matches(&self, game: &Game) -> bool {
        self.find(game).is_some()
    }
}

/// `select --fen`: a game passes when its main line reaches the position.
impl crate::games::select::GameFilter for PositionQuery {
    fn needs_game(&self) -> bool {
        true
    }

    fn by_game(&self, game: &Game) -> bool {
        self.matches(game)
    }

    fn scid_candidates(&self, positions: &ScidPositions<'_>) -> Option<Vec<Candidate>> {
        Some(positions.candidates(self))
    }
}

/// `select --material`: a game passes when its main line reaches the material.
impl crate::games::select::GameFilter for MaterialQuery {
    fn needs_game(&self) -> bool {
        true
    }

    fn by_game(&self, game: &Game) -> bool {
        self.matches(game)
    }
}

/// What [`search_scid`] found.
#[derive(Debug, Clone, Default)]
pub struct ScidSearch {
    /// The games (numbers from 0, in database order) whose main line reaches the position.
    pub games: Vec<usize>,
    /// Games replayed because their index entry allowed the position (the rest were pruned).
    pub replayed: usize,
    /// Games that could not be decoded (numbers from 0, and why): they are not searched, and
    /// said so here.
    pub problems: Vec<(usize, Diagnostic)>,
}

/// The games of a SCID database that reach `query`'s position, in database order, deleted games
/// included (as SCID's own board search does). The index entry prunes first
/// ([`PositionQuery::may_match_scid`]: SCID's home-pawn list and final material, 9 and 3 bytes
/// every entry already holds); the rest are replayed from their record, main line only, until
/// the position is found or out of reach. On all cores.
pub fn search_scid(db: &Database, query: &PositionQuery) -> ScidSearch {
    let found: Vec<(usize, Result<bool, Diagnostic>)> = db
        .entries
        .par_iter()
        .enumerate()
        // SCID's search skips a game without a record too.
        .filter(|(_, entry)| entry.length() > 0 && query.may_match_scid(entry))
        .map(|(n, entry)| (n, replay_scid(db, n, entry, query)))
        .collect();
    let mut search = ScidSearch { replayed: found.len(), ..ScidSearch::default() };
    for (n, result) in found {
        match result {
            Ok(true) => search.games.push(n),
            Ok(false) => {}
            Err(problem) => search.problems.push((n, problem)),
        }
    }
    search
}

/// Replays game `n`'s main line until the target or out of its reach.
pub(super) fn replay_scid(
    db: &Database,
    n: usize,
    entry: &IndexEntry,
    query: &PositionQuery,
) -> Result<bool, Diagnostic> {
    let record = db.raw_record(n).map_err(|e| e.diagnostic())?;
    let mut hit = false;
    crate::scid::decode::visit_main_line(record, entry.offset(), entry.chess960(), |pos| {
        hit = query.is_target(pos);
        !hit && query.reach.allows(pos.board())
    })
    .map_err(|mut e| {
        e.location = e.location.with(Unit::Game, n as u64 + 1);
        crate::scid::ScidError::from(e.in_file(&db.paths.games)).diagnostic()
    })?;
    Ok(hit)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pgn::PgnReader;

    fn game(movetext: &str) -> Game {
        PgnReader::new(movetext.as_bytes()).next().unwrap().unwrap().game
    }

    fn fen(text: &str) -> PositionQuery {
        PositionQuery::from_fen(text).unwrap()
    }

    #[test]
    fn a_position_is_found_by_any_move_order() {
        // The position after 1.d4 d5 2.Nf3, reached by 1.Nf3 d5 2.d4.
        let target = fen("rnbqkbnr/ppp1pppp/8/3p4/3P4/5N2/PPP1PPPP/RNBQKB1R b KQkq - 1 2");
        assert_eq!(target.find(&game("1. Nf3 d5 2. d4 Nf6 *")), Some(3));
        assert_eq!(target.find(&game("1. d4 d5 2. Nf3 *")), Some(3));
        assert!(!target.matches(&game("1. d4 d5 2. c4 *")));
        // The start position is ply 0.
        assert_eq!(fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1").find(&game("1. e4 *")), Some(0));
    }

    #[test]
    fn castling_rights_count_and_an_en_passant_square_only_when_it_can_be_taken() {
        // 1.e4: the FEN may name e3 or not, no black pawn can take there.
        let e4 = game("1. e4 e5 *");
        assert!(fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1").matches(&e4));
        assert!(fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1").matches(&e4));
        // Same pieces as after 1.Nf3 Nf6, but the rooks have moved: no castling on the king side.
        let rooks = game("1. Nf3 Nf6 2. Rg1 Rg8 3. Rh1 Rh8 *");
        assert_eq!(fen("rnbqkb1r/pppppppp/5n2/8/8/5N2/PPPPPPPP/RNBQKB1R w KQkq - 2 2").find(&rooks), Some(2));
        assert!(!fen("rnbqkb1r/pppppppp/5n2/8/8/5N2/PPPPPPPP/RNBQKB1R w Qq - 6 4").matches(&game("1. Nf3 Nf6 *")));
        assert_eq!(fen("rnbqkb1r/pppppppp/5n2/8/8/5N2/PPPPPPPP/RNBQKB1R w Qq - 6 4").find(&rooks), Some(6));
    }

    #[test]
    fn material_signatures() {
        // 2.exd5 leaves Black a pawn short; 2...Qxd5 evens it.
        let scandinavian = game("1. e4 d5 2. exd5 Qxd5 *");
        let down = MaterialQuery::parse("KQRRBBNNPPPPPPPPkqrrbbnnppppppp").unwrap();
        assert_eq!(down.find(&scandinavian), Some(3));
        assert_eq!(MaterialQuery::parse("KQRRBBNNPPPPPPPkqrrbbnnppppppp").unwrap().find(&scandinavian), Some(4));
        assert!(!MaterialQuery::parse("KRPkr").unwrap().matches(&scandinavian));
        for (bad, why) in [("KRP", "one king a side"), ("KXk", "letters"), ("KPPPPPPPPPk", "8 pawns")] {
            let error = MaterialQuery::parse(bad).unwrap_err().to_string();
            assert!(error.contains(why), "{bad}: {error}");
        }
        assert!(PositionQuery::from_fen("not a fen").is_err());
    }
}
