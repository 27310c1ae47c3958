//! The model every book → book conversion passes through: positions keyed by their
//! normalised form (the one CTG and Kvetka share), each with its results, its moves and the
//! formats' raw fields. Readers: `ctg::read_model`, `kvetka::convert::read_model`,
//! `polyglot::read_model`; writers: `polyglot::entries_of_model`,
//! `kvetka::convert::write_model`.

use std::collections::HashMap;

use rayon::prelude::*;
use shakmaty::Position;

use crate::boardcode::{MoveShape, Normalized};
use crate::kvetka::{Key, key};

/// Games of a position, counted for its side to move. `games - wins - draws - losses` games
/// had no known result (CTG counts them; Kvetka keeps W/D/L only).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Outcome {
    /// Games that reached the position.
    pub games: u32,
    /// Wins of the side to move.
    pub wins: u32,
    /// Drawn games.
    pub draws: u32,
    /// Losses of the side to move.
    pub losses: u32,
}

impl Outcome {
    /// The same games seen by the other side: wins and losses swap.
    pub fn from_opponent(self) -> Outcome {
        Outcome { wins: self.losses, losses: self.wins, ..self }
    }

    /// 2·wins + draws: what the results are worth to the side they count for.
    pub fn score(self) -> u64 {
        2 * u64::from(self.wins) + u64::from(self.draws)
    }
}

/// A normalised position as a book stores it under its key: without the frame that leads
/// back to the real position it was made from, so that every real position of one form gives
/// the same value (the one its key decodes to).
pub fn stored_form(normalized: &Normalized) -> Normalized {
    Normalized::from_key_parts(normalized.board.clone(), normalized.castling, normalized.ep_file)
}

/// The weight a book's results give a move: the mover's 2·wins + draws in the position the
/// move leads to (whose results count for the opponent); 0 when the book lacks that position
/// or its results. The one rule for weights from results: Kvetka → Polyglot, and CTG →
/// Polyglot before CTG's own marks (`ctg::Weights`), so that both agree.
pub fn results_weight(child: Option<&NormalizedPosition>) -> u64 {
    child.and_then(|c| c.outcome).map_or(0, |o| o.from_opponent().score())
}

/// One move of a [`NormalizedPosition`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NormalizedMove {
    /// The move in the normalised position.
    pub shape: MoveShape,
    /// What the move weighs for play: Polyglot's stored weight, or what the reader worked out
    /// from the book's results ([`results_weight`], CTG's annotations and colours).
    pub weight: u64,
    /// CTG's annotation byte (`!`, `?`, …); 0 elsewhere.
    pub annotation: u8,
    /// Polyglot's learn field; 0 elsewhere.
    pub learn: u32,
}

impl NormalizedMove {
    /// A move with no weight and no raw field.
    pub fn new(shape: MoveShape) -> NormalizedMove {
        NormalizedMove { shape, weight: 0, annotation: 0, learn: 0 }
    }
}

/// A position's form as the model keeps it: the Kvetka key of the stored form (22 bytes,
/// which every real book position fits), or, for a position whose code is longer, the form
/// itself, boxed. A book of millions of positions is held whole while it converts, so the
/// form is what each position costs most: 24 bytes instead of a 72-byte board, decoded only
/// where a writer needs the board ([`NormalizedPosition::normalized`]).
#[derive(Debug, Clone, PartialEq, Eq)]
enum Form {
    Key(Key),
    Long(Box<Normalized>),
}

impl Form {
    fn of(normalized: &Normalized) -> Form {
        match key::key_of(normalized) {
            Ok(key) => Form::Key(key),
            Err(_) => Form::Long(Box::new(stored_form(normalized))),
        }
    }
}

/// One position of a [`NormalizedBook`]; its moves are in the book
/// ([`NormalizedBook::moves_of`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NormalizedPosition {
    form: Form,
    /// Its results for the side to move; `None` where the book keeps none (Polyglot).
    pub outcome: Option<Outcome>,
    /// CTG: the record's 33-byte statistics block as stored (ratings, the recommendation
    /// colours, the evaluation and the bytes of unknown meaning); boxed, as only CTG has it.
    pub ctg_stats: Option<Box<[u8; 33]>>,
    /// Kvetka: the element's comment (an opening name, for example).
    pub comment: Option<Box<str>>,
    /// Where its moves start in [`NormalizedBook::moves`] and how many there are.
    moves_start: usize,
    moves_len: u32,
}

impl NormalizedPosition {
    /// A position with no results, moves or raw fields.
    pub fn new(normalized: &Normalized) -> NormalizedPosition {
        NormalizedPosition::of_form(Form::of(normalized))
    }

    /// The position a Kvetka key stands for, `key` being one that decodes
    /// ([`key::decode`]): a valid key is the form's own code, so it is kept as it is.
    pub(crate) fn of_kvetka_key(key: Key) -> NormalizedPosition {
        NormalizedPosition::of_form(Form::Key(key))
    }

    fn of_form(form: Form) -> NormalizedPosition {
        NormalizedPosition { form, outcome: None, ctg_stats: None, comment: None, moves_start: 0, moves_len: 0 }
    }

    /// The position, normalised (White to move, maybe mirrored), as stored: its frame is the
    /// identity ([`stored_form`]), as for a position read from a key. Decoded on each call;
    /// `None` only if the key does not decode, which the model's constructors rule out.
    pub fn normalized(&self) -> Option<Normalized> {
        match &self.form {
            Form::Key(k) => key::decode(k).ok(),
            Form::Long(normalized) => Some((**normalized).clone()),
        }
    }

    /// Its Kvetka key; `None` when the position's code is longer than a key.
    pub fn kvetka_key(&self) -> Option<&Key> {
        match &self.form {
            Form::Key(k) => Some(k),
            Form::Long(_) => None,
        }
    }
}

// What the model's layout is for (see `NormalizedBook`): kept this small.
const _: () = assert!(size_of::<NormalizedPosition>() <= 80 && size_of::<NormalizedMove>() <= 24);

/// Whether a position's moves are in an order the book chose.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum MoveOrder {
    /// In the book's order (CTG records, Kvetka elements).
    #[default]
    AsStored,
    /// In no meaningful order: a Polyglot book's real positions folded into normalised ones,
    /// several positions' moves together. Writers choose their own order.
    Unordered,
}

/// A book as positions keyed by their normalised form, in the order the reader met them.
/// Two positions may share a form (a damaged book); look-ups take the first.
///
/// Laid out for books of millions of positions held whole while they convert (Kvetka →
/// Polyglot holds the model beside the entries it makes): the positions in one vector, 80
/// bytes each (the form as a key, [`NormalizedPosition::normalized`]; CTG's block boxed;
/// the comment as a boxed `str`), and every move in one shared vector (24 bytes a move),
/// each position owning a range of it, rather than a vector of moves per position. A book of
/// 2.2 M positions takes 230 MB so, where a board, an inline block and a vector per position
/// took 460 MB.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct NormalizedBook {
    positions: Vec<NormalizedPosition>,
    moves: Vec<NormalizedMove>,
    /// What the order of each position's moves means.
    pub move_order: MoveOrder,
}

impl NormalizedBook {
    /// An empty book whose moves come in `move_order`.
    pub fn new(move_order: MoveOrder) -> NormalizedBook {
        NormalizedBook { move_order, ..NormalizedBook::default() }
    }

    /// Appends `position` with `moves` (the moves it had are replaced).
    pub fn push(&mut self, mut position: NormalizedPosition, moves: impl IntoIterator<Item = NormalizedMove>) {
        position.moves_start = self.moves.len();
        self.moves.extend(moves);
        position.moves_len = u32::try_from(self.moves.len() - position.moves_start).unwrap_or(u32::MAX);
        self.moves.truncate(position.moves_start + position.moves_len as usize);
        self.positions.push(position);
    }

    /// The positions, in the order they were pushed.
    pub fn positions(&self) -> &[NormalizedPosition] {
        &self.positions
    }

    /// The moves of `position`, one of this book's, in the book's order.
    pub fn moves_of(&self, position: &NormalizedPosition) -> &[NormalizedMove] {
        let start = position.moves_start.min(self.moves.len());
        let end = (start + position.moves_len as usize).min(self.moves.len());
        &self.moves[start..end]
    }

    /// Sets every move's weight to `rule(position, moves, children)`, where `children[i]` is
    /// the position `moves[i]` leads to, if the book holds it (found under any of its forms,
    /// [`Normalized::lookup_forms`]); a weight the rule leaves out is 0. Positions are weighed
    /// in parallel.
    pub fn weigh_by<F>(&mut self, rule: F)
    where
        F: Fn(&NormalizedPosition, &[NormalizedMove], &[Option<&NormalizedPosition>]) -> Vec<u64> + Sync,
    {
        let weights = self.weights(|position, moves, index| self.children(position, moves, index), rule);
        self.set_weights(weights);
    }

    /// [`NormalizedBook::weigh_by`] with the children found by the keys a reader recorded
    /// while it played each move ([`ChildKeys`], one entry per move of the book, in the book's
    /// order): no position is decoded and no move generated again.
    pub fn weigh_by_child_keys<F>(&mut self, child_keys: &ChildKeys, rule: F)
    where
        F: Fn(&NormalizedPosition, &[NormalizedMove], &[Option<&NormalizedPosition>]) -> Vec<u64> + Sync,
    {
        let children = |position: &NormalizedPosition, moves: &[NormalizedMove], index: &FormIndex| {
            (position.moves_start..position.moves_start + moves.len())
                .map(|m| child_keys.forms(m).find_map(|key| index.get_key(&key)))
                .collect()
        };
        let weights = self.weights(children, rule);
        self.set_weights(weights);
    }

    /// Every move's weight by `rule`, in the order of the moves, each move's child found by
    /// `children`.
    fn weights<C, F>(&self, children: C, rule: F) -> Vec<u64>
    where
        C: Fn(&NormalizedPosition, &[NormalizedMove], &FormIndex) -> Vec<Option<usize>> + Sync,
        F: Fn(&NormalizedPosition, &[NormalizedMove], &[Option<&NormalizedPosition>]) -> Vec<u64> + Sync,
    {
        let index = FormIndex::new(&self.positions);
        self.positions
            .par_iter()
            .flat_map_iter(|position| {
                let moves = self.moves_of(position);
                let children: Vec<Option<&NormalizedPosition>> =
                    children(position, moves, &index).into_iter().map(|c| c.map(|i| &self.positions[i])).collect();
                let mut weights = rule(position, moves, &children);
                weights.resize(moves.len(), 0);
                weights
            })
            .collect()
    }

    fn set_weights(&mut self, weights: Vec<u64>) {
        for (mv, weight) in self.moves.iter_mut().zip(weights) {
            mv.weight = weight;
        }
    }

    /// The index of the position each of `moves` (those of `position`) leads to, if the book
    /// holds it.
    fn children(
        &self,
        position: &NormalizedPosition,
        moves: &[NormalizedMove],
        index: &FormIndex,
    ) -> Vec<Option<usize>> {
        let Some((normalized, real)) = position.normalized().and_then(|n| n.real_position().ok().map(|r| (n, r)))
        else {
            return vec![None; moves.len()];
        };
        let legal = real.legal_moves();
        moves
            .iter()
            .map(|m| {
                let mv = normalized.find_move(&legal, m.shape)?;
                let mut child = real.clone();
                child.play_unchecked(mv);
                stored_form(&Normalized::new(&child)).lookup_forms().find_map(|form| index.get(&form))
            })
            .collect()
    }
}

/// The keys of the positions a book's moves lead to, recorded by a reader as it plays each
/// move, so that weighing ([`NormalizedBook::weigh_by_child_keys`]) needs no board: one entry
/// per move, in the order the moves go into the [`NormalizedBook`], holding the keys
/// [`Normalized::lookup_forms`] would try (the child's own; its key without the en-passant
/// file, kept aside as few positions have one).
#[derive(Debug, Clone, Default)]
pub struct ChildKeys {
    /// The child's own key, `None` when its code is longer than a key.
    keys: Vec<Option<Key>>,
    /// The index of a move in `keys` whose child has an en-passant file, with the child's key
    /// without it; in index order.
    without_ep: Vec<(usize, Key)>,
}

impl ChildKeys {
    /// Records the next move's child: its keys in look-up order (see
    /// `kvetka::key::lookup_keys`).
    pub fn push(&mut self, [own, without_ep]: [Option<Key>; 2]) {
        if let Some(key) = without_ep {
            self.without_ep.push((self.keys.len(), key));
        }
        self.keys.push(own);
    }

    /// Appends the children of `other`'s moves after these.
    pub fn append(&mut self, other: ChildKeys) {
        let offset = self.keys.len();
        self.keys.extend(other.keys);
        self.without_ep.extend(other.without_ep.into_iter().map(|(i, key)| (i + offset, key)));
    }

    /// The keys the child of move `m` is looked up under, in order.
    fn forms(&self, m: usize) -> impl Iterator<Item = Key> + '_ {
        let without_ep = self.without_ep.binary_search_by_key(&m, |&(i, _)| i).ok().map(|i| self.without_ep[i].1);
        self.keys.get(m).copied().flatten().into_iter().chain(without_ep)
    }
}

/// Every position's first index, by form, searched by key as a Kvetka book is: the keys
/// copied into one vector, sorted (22 bytes a position, searched without touching the
/// positions; the copy lives only while the book is weighed, when the entries do not exist
/// yet), and the few positions too long for a key hashed.
struct FormIndex<'a> {
    keys: Vec<Key>,
    /// Where the keys of each 16-bit prefix start in `keys` (one more at the end): a search
    /// bisects one prefix's few keys, not the whole book (a cache miss at every step of a
    /// search over millions of keys, 13 % of a Kvetka → Polyglot conversion).
    starts: Vec<usize>,
    /// The position of each of `keys`; `None` when `keys[i]` is `positions[i]`'s (every
    /// position keyed and in key order, as in a Kvetka book).
    at: Option<Vec<usize>>,
    long: HashMap<&'a Normalized, usize>,
}

impl<'a> FormIndex<'a> {
    fn new(positions: &'a [NormalizedPosition]) -> FormIndex<'a> {
        let mut long = HashMap::new();
        if positions.first().is_none_or(|p| p.kvetka_key().is_some())
            && positions.is_sorted_by(|a, b| b.kvetka_key().is_some() && a.kvetka_key() <= b.kvetka_key())
        {
            let keys: Vec<Key> = positions.iter().filter_map(|p| p.kvetka_key().copied()).collect();
            return FormIndex { starts: prefix_starts(&keys), keys, at: None, long };
        }
        let mut keyed: Vec<(Key, usize)> = Vec::new();
        for (i, position) in positions.iter().enumerate() {
            match &position.form {
                Form::Key(key) => keyed.push((*key, i)),
                Form::Long(normalized) => {
                    long.entry(&**normalized).or_insert(i);
                }
            }
        }
        // Stable: the first of equal keys stays first.
        keyed.sort_by_key(|(key, _)| *key);
        let (keys, at): (Vec<Key>, _) = keyed.into_iter().unzip();
        FormIndex { starts: prefix_starts(&keys), keys, at: Some(at), long }
    }

    fn get(&self, form: &Normalized) -> Option<usize> {
        match key::key_of(form) {
            Ok(key) => self.get_key(&key),
            Err(_) => self.long.get(form).copied(),
        }
    }

    fn get_key(&self, key: &Key) -> Option<usize> {
        let key = *key;
        let prefix = usize::from(prefix(&key));
        let (start, end) = (self.starts[prefix], self.starts[prefix + 1]);
        let found = start + self.keys[start..end].partition_point(|k| *k < key);
        if self.keys.get(found) != Some(&key) {
            return None;
        }
        match &self.at {
            None => Some(found),
            Some(at) => at.get(found).copied(),
        }
    }
}

/// A key's first 16 bits: keys in order have them in order.
fn prefix(key: &Key) -> u16 {
    u16::from_be_bytes([key.0[0], key.0[1]])
}

/// For sorted `keys`, where each 16-bit prefix's keys start, and their end.
fn prefix_starts(keys: &[Key]) -> Vec<usize> {
    (0..=1usize << 16).map(|p| keys.partition_point(|k| usize::from(prefix(k)) < p)).collect()
}
