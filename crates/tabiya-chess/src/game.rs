//! The game model: everything a PGN or SCID game holds, so that converting between them
//! loses nothing.
//!
//! ```
//! use tabiya_chess::game::{Game, GameResult};
//!
//! let game = Game::default();
//! assert_eq!(game.result, GameResult::Unknown);
//! assert!(game.start_position().is_ok());
//! ```

use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, Color, EnPassantMode, FromSetup, Move, Position, PositionError, Setup};

use crate::text::{Text, TextBuf};

/// A game's result, as PGN and SCID know it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub enum GameResult {
    /// White won.
    WhiteWins,
    /// Black won.
    BlackWins,
    /// Drawn.
    Draw,
    /// `*`: unknown, unfinished or abandoned.
    #[default]
    Unknown,
}

impl GameResult {
    /// The result as PGN writes it (`1-0`, `0-1`, `1/2-1/2`, `*`).
    pub fn as_pgn(self) -> &'static str {
        match self {
            GameResult::WhiteWins => "1-0",
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "1/2-1/2",
            GameResult::Unknown => "*",
        }
    }

    /// The result a PGN result token names, if it is one.
    pub fn from_pgn(text: impl AsRef<[u8]>) -> Option<GameResult> {
        Some(match text.as_ref() {
            b"1-0" => GameResult::WhiteWins,
            b"0-1" => GameResult::BlackWins,
            b"1/2-1/2" => GameResult::Draw,
            b"*" => GameResult::Unknown,
            _ => return None,
        })
    }
}

/// One move of a line with what is attached to it.
///
/// Most moves carry no NAG, comment or variation, so those are kept in a box of their own,
/// made when the first one is added: a move is 16 bytes, and lines are built and dropped
/// without touching three empty lists per move.
#[derive(Clone)]
pub struct Node {
    /// `None` is a null move (`--` in PGN).
    pub mv: Option<Move>,
    notes: NotesBox,
}

/// A move's notes, boxed when there are any. Dropping a move without notes is a test in the
/// loop over a line's moves; notes are dropped out of that loop, so lines of plain moves are
/// dropped at a few instructions a move.
#[derive(Clone, Default)]
struct NotesBox(Option<Box<Notes>>);

impl Drop for NotesBox {
    #[inline(always)]
    fn drop(&mut self) {
        if let Some(notes) = self.0.take() {
            drop_notes(notes);
        }
    }
}

#[cold]
#[inline(never)]
fn drop_notes(notes: Box<Notes>) {
    drop(notes);
}

/// What is attached to a move.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Notes {
    /// Numeric annotation glyphs, in order (`$1` = `!`).
    pub nags: Vec<u8>,
    /// Comments after the move, in order, as the bytes they came as.
    pub comments: Vec<TextBuf>,
    /// Alternatives to this move, each played from the position before it.
    pub variations: Vec<Line>,
}

impl Node {
    /// A move (`None`: a null move) with no notes.
    pub fn new(mv: Option<Move>) -> Node {
        Node { mv, notes: NotesBox(None) }
    }

    /// Numeric annotation glyphs, in order (`$1` = `!`).
    pub fn nags(&self) -> &[u8] {
        self.notes.0.as_deref().map_or(&[], |n| &n.nags)
    }

    /// Comments after the move, in order.
    pub fn comments(&self) -> &[TextBuf] {
        self.notes.0.as_deref().map_or(&[], |n| &n.comments)
    }

    /// Alternatives to this move, each played from the position before it.
    pub fn variations(&self) -> &[Line] {
        self.notes.0.as_deref().map_or(&[], |n| &n.variations)
    }

    /// The NAGs, comments and variations, to add to or change.
    pub fn notes_mut(&mut self) -> &mut Notes {
        self.notes.0.get_or_insert_default()
    }

    /// The NAGs, comments and variations to change, if the move has any.
    pub fn existing_notes_mut(&mut self) -> Option<&mut Notes> {
        self.notes.0.as_deref_mut()
    }
}

/// Equal when the moves and everything attached are: a move whose notes were made and left
/// empty equals one that never had any.
impl PartialEq for Node {
    fn eq(&self, other: &Node) -> bool {
        self.mv == other.mv
            && self.nags() == other.nags()
            && self.comments() == other.comments()
            && self.variations() == other.variations()
    }
}

impl Eq for Node {}

impl std::fmt::Debug for Node {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Node")
            .field("mv", &self.mv)
            .field("nags", &self.nags())
            .field("comments", &self.comments())
            .field("variations", &self.variations())
            .finish()
    }
}

/// A sequence of moves: the main line or a variation.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Line {
    /// Comments before the first move (the pre-game comment of the main line, or the comment
    /// at the start of a variation), as the bytes they came as.
    pub comments: Vec<TextBuf>,
    /// The moves, in order.
    pub nodes: Vec<Node>,
}

/// A game's tags (name, value) in the order they were read, as the bytes they came as. Names
/// and values are kept in one buffer, so that reading a game costs two allocations for its
/// tags instead of two per tag.
#[derive(Clone, Default)]
pub struct Tags {
    text: Vec<u8>,
    /// Where each tag's name and value end in `text`; a name starts where the tag before ends.
    ends: Vec<(usize, usize)>,
}

impl Tags {
    /// Room for `tags` tags of `bytes` bytes of names and values together.
    pub fn with_capacity(tags: usize, bytes: usize) -> Tags {
        Tags { text: Vec::with_capacity(bytes), ends: Vec::with_capacity(tags) }
    }

    /// Number of tags.
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    /// No tags at all.
    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// Removes every tag, keeping the room they took (for the next game's tags).
    pub fn clear(&mut self) {
        self.text.clear();
        self.ends.clear();
    }

    /// Appends a tag, even when one of that name is already there.
    #[inline]
    pub fn push(&mut self, name: impl AsRef<[u8]>, value: impl AsRef<[u8]>) {
        self.text.extend_from_slice(name.as_ref());
        let name_end = self.text.len();
        self.text.extend_from_slice(value.as_ref());
        self.ends.push((name_end, self.text.len()));
    }

    /// The value of the first tag with this name. Names are compared as bytes, lengths
    /// first: readers look up a few tags of every game, and most names differ in length.
    #[inline]
    pub fn get(&self, name: &str) -> Option<&Text> {
        let mut start = 0;
        for &(name_end, value_end) in &self.ends {
            if name_end - start == name.len() && self.text.get(start..name_end) == Some(name.as_bytes()) {
                return self.text.get(name_end..value_end).map(Text::new);
            }
            start = value_end;
        }
        None
    }

    /// Sets a tag, replacing the value of the first with the same name or appending.
    pub fn set(&mut self, name: &str, value: impl AsRef<[u8]>) {
        let value = Text::new(value.as_ref());
        match self.iter().position(|(n, _)| n == name) {
            None => self.push(name, value),
            Some(replaced) => {
                let mut tags = Tags::with_capacity(self.len(), self.text.len() + value.len());
                for (i, (n, v)) in self.iter().enumerate() {
                    tags.push(n, if i == replaced { value } else { v });
                }
                *self = tags;
            }
        }
    }

    #[inline]
    /// The (name, value) pairs in order.
    pub fn iter(&self) -> TagsIter<'_> {
        TagsIter { text: &self.text, ends: self.ends.iter(), start: 0 }
    }
}

/// The (name, value) pairs of [`Tags`] in order.
#[derive(Debug, Clone)]
pub struct TagsIter<'a> {
    text: &'a [u8],
    ends: std::slice::Iter<'a, (usize, usize)>,
    /// Where the next tag's name starts.
    start: usize,
}

impl<'a> Iterator for TagsIter<'a> {
    type Item = (&'a Text, &'a Text);

    #[inline]
    fn next(&mut self) -> Option<(&'a Text, &'a Text)> {
        let &(name_end, value_end) = self.ends.next()?;
        let start = std::mem::replace(&mut self.start, value_end);
        Some((Text::new(&self.text[start..name_end]), Text::new(&self.text[name_end..value_end])))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.ends.size_hint()
    }
}

impl ExactSizeIterator for TagsIter<'_> {}

impl<'a> IntoIterator for &'a Tags {
    type Item = (&'a Text, &'a Text);
    type IntoIter = TagsIter<'a>;

    fn into_iter(self) -> TagsIter<'a> {
        self.iter()
    }
}

impl<N: AsRef<[u8]>, V: AsRef<[u8]>> FromIterator<(N, V)> for Tags {
    fn from_iter<I: IntoIterator<Item = (N, V)>>(iter: I) -> Tags {
        let mut tags = Tags::default();
        for (name, value) in iter {
            tags.push(name, value);
        }
        tags
    }
}

/// Equal when the same tags are in the same order.
impl PartialEq for Tags {
    fn eq(&self, other: &Tags) -> bool {
        self.len() == other.len() && self.iter().eq(other.iter())
    }
}

impl Eq for Tags {}

/// Shown as the list of (name, value) pairs.
impl std::fmt::Debug for Tags {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

/// A chess game with its headers, start position, moves, annotations and result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Game {
    /// Every tag in the order it was read, the seven-tag roster included.
    pub tags: Tags,
    /// `None` is the standard starting position.
    pub start: Option<Fen>,
    /// Chess960 games use `CastlingMode::Chess960`.
    pub castling_mode: CastlingMode,
    /// The main line, with its variations.
    pub moves: Line,
    /// The result (the movetext's, else the Result tag's).
    pub result: GameResult,
}

impl Default for Game {
    fn default() -> Game {
        Game {
            tags: Tags::default(),
            start: None,
            castling_mode: CastlingMode::Standard,
            moves: Line::default(),
            result: GameResult::Unknown,
        }
    }
}

impl Game {
    /// The value of the first tag with this name, as the bytes it came as.
    pub fn tag(&self, name: &str) -> Option<&Text> {
        self.tags.get(name)
    }

    /// Sets a tag, replacing the first with the same name or appending.
    pub fn set_tag(&mut self, name: &str, value: impl AsRef<[u8]>) {
        self.tags.set(name, value);
    }

    /// The position the game starts from.
    pub fn start_position(&self) -> Result<Chess, Box<PositionError<Chess>>> {
        match &self.start {
            None => Ok(Chess::default()),
            Some(fen) => fen.clone().into_position(self.castling_mode).map_err(Box::new),
        }
    }

    /// Number of half-moves in the main line.
    pub fn ply_count(&self) -> usize {
        self.moves.nodes.len()
    }
}

/// The position after a null move (`--`), which counts as a ply as SCID counts it (its
/// `Position::DoSimpleMove`): the other side to move, no en passant square, the halfmove clock
/// one up, and the move number one up after Black passes. So `31.Rh3 -- 32.Qxh7+` is numbered
/// as SCID numbers it. `None` when the side to move is in check (passing would leave its king
/// capturable).
pub fn pass(pos: &Chess) -> Option<Chess> {
    Chess::from_setup(passed(pos), pos.castles().mode()).ok()
}

/// The setup after a null move ([`pass`]), for a caller that tolerates a pass out of check.
pub(crate) fn passed(pos: &Chess) -> Setup {
    let mut setup = pos.to_setup(EnPassantMode::Legal);
    setup.swap_turn();
    setup.halfmoves = setup.halfmoves.saturating_add(1);
    if pos.turn() == Color::Black {
        setup.fullmoves = setup.fullmoves.saturating_add(1);
    }
    setup
}

#[cfg(test)]
mod tests {
    use shakmaty::{Role, Square};

    use super::*;

    #[test]
    fn tags_keep_order_and_duplicates_and_set_replaces_the_first() {
        let mut tags: Tags =
            [("Event", "Casual"), ("White", "Morphy"), ("Event", "again"), ("Black", "")].into_iter().collect();
        assert_eq!(tags.len(), 4);
        assert_eq!(tags.get("Event"), Some(Text::new("Casual")));
        assert_eq!(tags.get("Black"), Some(Text::new("")));
        assert_eq!(tags.get("Site"), None);
        tags.set("Event", "Paris Opera");
        tags.set("Site", "Paris");
        let pairs: Vec<(&Text, &Text)> = tags.iter().collect();
        let expected =
            [("Event", "Paris Opera"), ("White", "Morphy"), ("Event", "again"), ("Black", ""), ("Site", "Paris")];
        assert_eq!(pairs, expected.map(|(n, v)| (Text::new(n), Text::new(v))));
        assert_eq!(tags.iter().len(), 5);
        assert_eq!(format!("{:?}", Tags::from_iter([("A", "1")])), r#"[("A", "1")]"#);
        // Equal by content, whatever the text held before a replacement.
        let rebuilt: Tags = pairs.into_iter().collect();
        assert_eq!(rebuilt, tags);
        assert_ne!(rebuilt, Tags::default());
    }

    #[test]
    fn a_move_is_small_and_its_notes_are_made_on_first_use() {
        assert_eq!(std::mem::size_of::<Node>(), 16);
        let e4 =
            Some(Move::Normal { role: Role::Pawn, from: Square::E2, capture: None, to: Square::E4, promotion: None });
        let bare = Node::new(e4);
        let mut emptied = Node::new(e4);
        emptied.notes_mut().nags.push(1);
        emptied.notes_mut().nags.clear();
        // Notes made and emptied again equal none at all, in equality and in Debug text.
        assert_eq!(emptied, bare);
        assert_eq!(format!("{emptied:?}"), format!("{bare:?}"));
        assert_eq!(
            format!("{bare:?}"),
            "Node { mv: Some(Normal { role: Pawn, from: E2, capture: None, to: E4, promotion: None }), \
             nags: [], comments: [], variations: [] }"
        );
        let mut annotated = Node::new(e4);
        annotated.notes_mut().comments.push("best by test".into());
        annotated.notes_mut().variations.push(Line { comments: Vec::new(), nodes: vec![Node::new(None)] });
        assert_ne!(annotated, bare);
        assert_eq!(annotated.comments(), ["best by test"]);
        assert_eq!(annotated.variations()[0].nodes, [Node::new(None)]);
        assert!(annotated.nags().is_empty());
    }
}
