//! PGN text walked a piece at a time on every core, what each piece gives handed on in file
//! order: the one pipeline behind every parallel read of PGN (games sources and `select`, book
//! builds from a stream, Python's `positions()`).
//!
//! The calling thread cuts the text into pieces that hold whole games and hands them to
//! `threads` walking threads; what they make it puts back in file order and hands on. No
//! barrier between rounds of pieces: a thread that finishes a piece takes the next one. At
//! most [`Pieces::ahead`] pieces are cut and not yet handed on, so memory stays flat whatever
//! the input's length. Text in memory (a mapped file) is cut into slices of itself, nothing
//! copied; a stream is read into each piece's own buffer (only the unfinished game at its end
//! is copied, to open the next piece), and the buffers are used again for the pieces after
//! (fresh ones would be fresh pages to fault in). Either is cut without looking back for a
//! `{` comment around the cut, and the walkers check the cuts (see [`PieceInput`]). A
//! stream's first pieces are small and grow to the size asked for, so that no walker waits
//! long for its first text.

use std::any::Any;
use std::collections::BTreeMap;
use std::io::{self, Read};
use std::panic::{self, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{Receiver, channel};
use std::sync::{Mutex, MutexGuard, PoisonError};
use std::thread;

use super::split::{Comments, piece_end, read_piece};

/// Where the pieces' text comes from; `T` is what a piece's walk makes.
///
/// Each piece is cut before a game start without looking back for a `{` comment around it
/// (that look reads every byte, on the cutting thread alone). The function given with the
/// input says, of what a piece's walk made, whether the piece's text ended inside a `{`
/// comment (its walker reads every byte anyway). Such a piece, unless it is the text's last,
/// was cut inside a comment: it and the pieces cut after it are dropped (a stream's buffers
/// come back from their walkers for it), and the text is cut again from its start by the
/// rule that looks at comments ([`crate::pgn::split_games`]'s), to its end (a text whose
/// comments hold game starts is cut as carefully as before from then on).
pub enum PieceInput<'a, T> {
    /// Text held in memory, a memory-mapped file's bytes for one: each piece is a slice of it.
    Bytes(&'a [u8], &'a (dyn Fn(&T) -> bool + Sync)),
    /// A stream (a decompressed file, a pipe), read on the calling thread a piece at a time.
    /// Without the function (a walk that cannot tell), it is cut by the rule that looks at
    /// comments from the start.
    Stream(&'a mut dyn Read, Option<&'a (dyn Fn(&T) -> bool + Sync)>),
}

/// How the text is cut and walked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Pieces {
    /// Bytes a piece holds at least (but the last): it ends before the next game start.
    pub piece: usize,
    /// Threads that walk the pieces (at least one).
    pub threads: usize,
    /// Pieces cut and not yet handed on, at most (at least one): what bounds the memory.
    pub ahead: usize,
}

impl Pieces {
    /// Pieces of about `piece` bytes on `threads` threads, up to three a thread ahead.
    pub fn new(piece: usize, threads: usize) -> Pieces {
        Pieces { piece, threads, ahead: 3 * threads.max(1) }
    }
}

/// A piece's text: a slice of text in memory, or a buffer read from a stream.
enum Text<'a> {
    Slice(&'a [u8]),
    Buffer(Vec<u8>),
}

impl Text<'_> {
    fn bytes(&self) -> &[u8] {
        match self {
            Text::Slice(bytes) => bytes,
            Text::Buffer(buffer) => buffer,
        }
    }
}

/// Cuts `input` into pieces as `pieces` says, makes each into a `T` with `walk(text, offset of
/// its first byte in the input)` on the walking threads, and hands the `T`s to `emit` in file
/// order, on the calling thread, until it returns false. A read error ends the walk: the pieces
/// before it are handed on, then it is returned.
pub fn walk_in_order<T: Send>(
    input: PieceInput<'_, T>,
    pieces: &Pieces,
    walk: impl Fn(&[u8], u64) -> T + Sync,
    mut emit: impl FnMut(T) -> bool,
) -> io::Result<()> {
    let ahead = pieces.ahead.max(1) as u64;
    let ends_in_comment = match &input {
        PieceInput::Bytes(_, ends_in_comment) => Some(*ends_in_comment),
        PieceInput::Stream(_, ends_in_comment) => *ends_in_comment,
    };
    let (work, to_walk) = channel::<Piece<'_>>();
    let (done, walked) = channel::<(u64, Walked<'_, T>)>();
    let to_walk = Mutex::new(to_walk);
    // Set when `emit` wants no more: the pieces still queued are not walked.
    let stopped = AtomicBool::new(false);
    // The pieces numbered below are dropped (cut again): those still queued are not walked.
    let first_kept = AtomicU64::new(0);
    std::thread::scope(|scope| {
        for _ in 0..pieces.threads.max(1) {
            let done = done.clone();
            let (to_walk, walk, stopped, first_kept) = (&to_walk, &walk, &stopped, &first_kept);
            scope.spawn(move || {
                loop {
                    // The lock is let go before the walk (a guard in the loop's condition would be
                    // held through the body: one walker at a time).
                    let next = locked(to_walk).recv();
                    let Ok(Piece { number, text, offset, last }) = next else { break };
                    if stopped.load(Ordering::Relaxed) {
                        break;
                    }
                    if number < first_kept.load(Ordering::Relaxed) {
                        // Dropped: only its text comes back, to be cut again.
                        let dropped = Walked { offset, cut_in_comment: false, made: None, text };
                        if done.send((number, dropped)).is_err() {
                            break;
                        }
                        continue;
                    }
                    // A panic is handed on in the piece's place, to be raised on the calling thread
                    // (waiting for a piece that never comes would hang).
                    let made = panic::catch_unwind(AssertUnwindSafe(|| walk(text.bytes(), offset)));
                    let panicked = made.is_err();
                    let cut_in_comment =
                        !last && ends_in_comment.zip(made.as_ref().ok()).is_some_and(|(ends, made)| ends(made));
                    let walked = Walked { offset, cut_in_comment, made: Some(made), text };
                    if done.send((number, walked)).is_err() || panicked {
                        break;
                    }
                }
            });
        }
        drop(done);
        let mut order =
            InOrder { walked, waiting: BTreeMap::new(), next: 0, panic: None, spare: Vec::new(), keep_spare: true };
        let mut cutter = Cutter {
            input,
            piece: pieces.piece,
            at: 0,
            comments: ends_in_comment.is_none().then(Comments::default),
            rest: Vec::new(),
            cut: 0,
        };
        let (mut cut, mut ended) = (0u64, false);
        let result = loop {
            if ended && order.next == cut {
                break Ok(());
            }
            // What is walked is handed on at once; the next piece is cut when there is room.
            let full = ended || cut - order.next >= ahead;
            match order.hand_on(&mut emit, full) {
                HandedOn::All => {}
                HandedOn::Stopped => break Ok(()),
                HandedOn::CutInComment(offset) => {
                    // The pieces queued are dropped unwalked; those being walked, when they come.
                    first_kept.store(cut, Ordering::Relaxed);
                    let Some(texts) = order.drop_before(cut) else { break Ok(()) };
                    cutter.cut_again_from(offset, texts);
                    ended = false;
                    continue;
                }
            }
            if full {
                continue;
            }
            match cutter.next(&mut || order.spare.pop().unwrap_or_default()) {
                Ok((text, offset, last)) => {
                    ended = last;
                    if last {
                        // A stream's builds hold what the pieces made, and need the memory more.
                        order.keep_spare = false;
                        order.spare.clear();
                    }
                    if !text.bytes().is_empty() {
                        // The walkers are gone only when this scope ends.
                        let _ = work.send(Piece { number: cut, text, offset, last });
                        cut += 1;
                    }
                }
                Err(e) => {
                    // The pieces before the error are handed on first (a stream's: all of them).
                    while order.next < cut && order.hand_on(&mut emit, true) == HandedOn::All {}
                    break Err(e);
                }
            }
        };
        stopped.store(true, Ordering::Relaxed);
        drop(work);
        if let Some(panic) = order.panic {
            panic::resume_unwind(panic);
        }
        result
    })
}

/// A piece cut, for a walker: its number, text and offset, and whether it is the last.
struct Piece<'a> {
    number: u64,
    text: Text<'a>,
    offset: u64,
    last: bool,
}

/// A piece back from its walker: its offset, what its walk made (or the walk's panic; `None`
/// for a piece dropped unwalked), whether it was found cut inside a comment (see
/// [`PieceInput`]), and its text (a stream's buffer, to be used again or cut again).
struct Walked<'a, T> {
    offset: u64,
    cut_in_comment: bool,
    made: Option<thread::Result<T>>,
    text: Text<'a>,
}

/// How far [`InOrder::hand_on`] went.
#[derive(Debug, PartialEq, Eq)]
enum HandedOn {
    /// Every piece that was next in order.
    All,
    /// `emit` wants no more, or a walk panicked.
    Stopped,
    /// Up to the piece at this offset, which was cut inside a comment (not handed on).
    CutInComment(u64),
}

/// The pieces walked and not yet handed on, the number of the next to hand on, the panic of a
/// walk that panicked, once its turn came, and the buffers of the pieces handed on, for the
/// next pieces of a stream.
struct InOrder<'a, T> {
    walked: Receiver<(u64, Walked<'a, T>)>,
    waiting: BTreeMap<u64, Walked<'a, T>>,
    next: u64,
    panic: Option<Box<dyn Any + Send>>,
    spare: Vec<Vec<u8>>,
    /// Buffers are kept in `spare` (until the last piece is cut).
    keep_spare: bool,
}

impl<'a, T> InOrder<'a, T> {
    /// Hands on every walked piece that is next in order, after waiting for one more piece to
    /// be walked when `wait` says so.
    fn hand_on(&mut self, emit: &mut impl FnMut(T) -> bool, wait: bool) -> HandedOn {
        if wait {
            match self.walked.recv() {
                Ok((number, walked)) => _ = self.waiting.insert(number, walked),
                // Every walker has gone (only a panic ends one early).
                Err(_) => return HandedOn::Stopped,
            }
        }
        while let Ok((number, walked)) = self.walked.try_recv() {
            self.waiting.insert(number, walked);
        }
        while let Some(walked) = self.waiting.remove(&self.next) {
            if walked.cut_in_comment {
                let offset = walked.offset;
                self.waiting.insert(self.next, walked);
                return HandedOn::CutInComment(offset);
            }
            self.next += 1;
            if let (Text::Buffer(buffer), true) = (walked.text, self.keep_spare) {
                self.spare.push(buffer);
            }
            let stop = match walked.made {
                Some(Ok(made)) => !emit(made),
                Some(Err(panic)) => {
                    self.panic = Some(panic);
                    true
                }
                // Only the pieces numbered before `next` are dropped (see `drop_before`).
                None => false,
            };
            if stop {
                return HandedOn::Stopped;
            }
        }
        if self.panic.is_some() { HandedOn::Stopped } else { HandedOn::All }
    }

    /// Drops the pieces from the next to hand on up to `next` (excluded), which is handed on
    /// next: waits for those still being walked or queued (the walkers send them back
    /// unwalked), and gives back their texts in order, or `None` when the walkers are gone (a
    /// walk panicked). The panic of a dropped piece's walk is kept.
    fn drop_before(&mut self, next: u64) -> Option<Vec<Text<'a>>> {
        let dropped = self.next..next;
        while self.waiting.range(dropped.clone()).count() < dropped.clone().count() {
            let Ok((number, walked)) = self.walked.recv() else {
                // Only a panic ends a walker early: it is raised, wherever its piece stands.
                let found = self.waiting.values_mut().find_map(|w| w.made.take_if(|made| made.is_err()));
                if self.panic.is_none()
                    && let Some(Err(panic)) = found
                {
                    self.panic = Some(panic);
                }
                return None;
            };
            self.waiting.insert(number, walked);
        }
        let mut texts = Vec::new();
        for number in dropped {
            let walked = self.waiting.remove(&number)?;
            if let Some(Err(panic)) = walked.made {
                self.panic.get_or_insert(panic);
            }
            texts.push(walked.text);
        }
        self.next = next;
        Some(texts)
    }
}

/// Cuts the pieces of a [`PieceInput`] one after the other.
struct Cutter<'a, T> {
    input: PieceInput<'a, T>,
    piece: usize,
    /// The offset of the next piece's first byte.
    at: u64,
    /// What cutting found out so far about the comments of text in memory; `None` while the
    /// walkers check the cuts (see [`PieceInput`]); a stream's pieces are searched afresh.
    comments: Option<Comments>,
    /// Read from a stream for the next piece: the game the last piece did not finish.
    rest: Vec<u8>,
    /// The pieces cut so far.
    cut: u32,
}

impl<'a, T> Cutter<'a, T> {
    /// The next piece, its offset, and whether it is the last.
    fn next(&mut self, buffer: &mut impl FnMut() -> Vec<u8>) -> io::Result<(Text<'a>, u64, bool)> {
        let offset = self.at;
        let stream_piece = self.stream_piece();
        let (text, last) = match &mut self.input {
            PieceInput::Bytes(bytes, _) => {
                let bytes: &'a [u8] = bytes;
                let start = offset as usize;
                let end = piece_end(bytes, start, self.piece, self.comments.as_mut());
                (Text::Slice(&bytes[start..end]), end == bytes.len())
            }
            PieceInput::Stream(input, _) => {
                let mut text = buffer();
                text.clear();
                text.append(&mut self.rest);
                let look_at_comments = self.comments.is_some();
                let ended = read_piece(*input, stream_piece, &mut text, &mut self.rest, look_at_comments)?;
                (Text::Buffer(text), ended)
            }
        };
        self.at += text.bytes().len() as u64;
        self.cut += 1;
        Ok((text, offset, last))
    }

    /// Cuts the text again from `offset`, a game start whose piece was found cut inside a
    /// comment, by the rule that looks at comments, to its end; `texts` are the pieces cut
    /// from there on (a stream's are read again before the rest of the stream).
    fn cut_again_from(&mut self, offset: u64, texts: Vec<Text<'_>>) {
        self.at = offset;
        self.comments = Some(Comments::outside_at(offset as usize));
        if let PieceInput::Stream(..) = self.input {
            let mut again: Vec<u8> = texts.iter().flat_map(|text| text.bytes()).copied().collect();
            again.append(&mut self.rest);
            self.rest = again;
        }
    }

    /// The bytes the next piece of a stream holds at least: [`FIRST_STREAM_PIECE`], twice as
    /// many for each piece after, up to the piece asked for. Reading (decoding) a stream's piece
    /// takes time that text in memory does not: with pieces of the full size from the start,
    /// the second walker would wait for two whole pieces to be read before it begins (the
    /// 32 MB pieces of a book build are 0.1 s of zstd and 0.15 s of gzip each).
    fn stream_piece(&self) -> usize {
        self.piece.min(1usize.checked_shl(self.cut).map_or(usize::MAX, |f| FIRST_STREAM_PIECE.saturating_mul(f)))
    }
}

/// The first piece of a stream holds this many bytes at least (or the piece asked for, if
/// smaller): little enough that every walker has text soon after the stream begins.
const FIRST_STREAM_PIECE: usize = 1 << 20;

/// The mutex's value, also after a thread panicked holding it (the panic is raised where it
/// belongs; what it guarded stays usable for the rest).
pub(crate) fn locked<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pgn::{PgnWalk, WalkOptions};

    /// A reader that gives its text a few bytes at a time, then fails.
    struct Failing<'a>(&'a [u8]);

    impl Read for Failing<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            if self.0.is_empty() {
                return Err(io::Error::other("the disk is gone"));
            }
            let n = buf.len().min(self.0.len()).min(7);
            buf[..n].copy_from_slice(&self.0[..n]);
            self.0 = &self.0[n..];
            Ok(n)
        }
    }

    /// A game's offset, length and tag count.
    type Seen = (u64, u64, usize);

    /// A piece's games, and whether its text ended inside a comment.
    type Piece = (Vec<Seen>, bool);

    /// What a piece's walk says of its end, for [`PieceInput::Bytes`].
    fn ends_in_comment(piece: &Piece) -> bool {
        piece.1
    }

    /// What each piece's games are, walked from `text` cut as `input` is.
    fn games(input: PieceInput<'_, Piece>, pieces: &Pieces) -> (io::Result<()>, Vec<Vec<Seen>>) {
        let walk = |text: &[u8], offset: u64| -> Piece {
            let mut walk = PgnWalk::at_offset(text, offset, WalkOptions::default());
            let games = walk.by_ref().flatten().map(|g| (g.offset, g.length, g.tags().count())).collect();
            (games, walk.ended_in_comment())
        };
        let mut made = Vec::new();
        let read = walk_in_order(input, pieces, walk, |(piece, _)| {
            made.push(piece);
            true
        });
        (read, made)
    }

    #[test]
    fn pieces_in_memory_and_streamed_give_the_games_of_the_whole_text_in_order() {
        let text = include_bytes!("../../../../samples/famous-games.pgn");
        let (_, whole) = games(PieceInput::Bytes(text, &ends_in_comment), &Pieces::new(usize::MAX, 1));
        let whole = whole.concat();
        // The sample's twelve games, the first at its start, each after the one before.
        assert_eq!(whole.len(), 12);
        assert_eq!(whole[0].0, 0);
        assert!(whole.windows(2).all(|w| w[0].0 + w[0].1 <= w[1].0));
        for piece in [1, 50, 700, 5000, 1 << 20] {
            for (threads, ahead) in [(1, 1), (2, 1), (3, 9)] {
                let pieces = Pieces { piece, threads, ahead };
                let (read, sliced) = games(PieceInput::Bytes(text, &ends_in_comment), &pieces);
                read.unwrap();
                assert_eq!(sliced.concat(), whole, "slices of {piece} bytes, {threads} threads");
                let (read, streamed) = games(PieceInput::Stream(&mut &text[..], Some(&ends_in_comment)), &pieces);
                read.unwrap();
                assert_eq!(streamed.concat(), whole, "a stream in pieces of {piece} bytes, {threads} threads");
                // No piece is empty, and only the last holds less than asked for.
                for made in [&sliced, &streamed] {
                    assert!(made.len() <= text.len().div_ceil(piece), "{piece}: {} pieces", made.len());
                    assert!(made.len() > 1 || piece >= text.len() / 2, "{piece}: {} pieces", made.len());
                }
            }
        }
        let (_, empty) = games(PieceInput::Bytes(b"", &ends_in_comment), &Pieces::new(100, 2));
        assert!(empty.is_empty());
    }

    #[test]
    fn text_cut_inside_a_comment_is_cut_again_around_it() {
        use std::sync::atomic::AtomicUsize;
        let plain = |from: usize, to: usize| -> String {
            (from..to).map(|n| format!("[Event \"{n}\"]\n\n1. e4 e5 *\n\n")).collect()
        };
        // A comment quoting a game (blank line and tag line inside it: no game starts there), a
        // `{` in a tag value and in a `;` comment (no comments: a game starts after each), a
        // comment that opens in one game and closes in the next's movetext... and, last, an
        // unterminated comment, which runs to the end: the games after it are its text.
        let text = [
            plain(0, 30),
            "[Event \"citing\"]\n\n1. d4 {as in\n\n[Event \"q1\"]\n\n1. c4 *\n\n[Event \"q2\"]\n\n1. c4} d5 *\n\n"
                .into(),
            plain(30, 60),
            "[Event \"{brace\"]\n\n1. f4 *\n\n[Event \"semicolon\"]\n\n1. f4 ; {\n*\n\n".into(),
            plain(60, 90),
            "[Event \"open\"]\n\n1. e4 {runs on\n\n".into(),
            plain(90, 100).replace("[Event \"", "[Event \"q"),
            "}\n\n[Event \"after\"]\n\n1. d4 *\n\n".into(),
            plain(100, 130),
            "[Event \"unterminated\"]\n\n1. e4 {to the end\n\n".into(),
            plain(130, 160).replace("[Event \"", "[Event \"q"),
        ]
        .concat();
        let text = text.as_bytes();
        // Where the games start, found by hand: every tag line but those in comments (named
        // `q…`); the one with the unterminated comment is unreadable, and walked games only.
        let starts: Vec<u64> = (0..text.len())
            .filter(|&at| text[at..].starts_with(b"[Event \"") && text[at + 8] != b'q')
            .map(|at| at as u64)
            .collect();
        assert_eq!(starts.len(), 120 + 6);
        let unreadable = *starts.last().unwrap();
        let walks = AtomicUsize::new(0);
        let walk = |text: &[u8], offset: u64| -> Piece {
            walks.fetch_add(1, Ordering::Relaxed);
            let mut walk = PgnWalk::at_offset(text, offset, WalkOptions::default());
            let games = walk.by_ref().flatten().map(|g| (g.offset, g.length, g.tags().count())).collect();
            (games, walk.ended_in_comment())
        };
        // Pieces found cut inside a comment, in memory and streamed.
        let mut cut_again = [0, 0];
        for piece in (1..text.len()).step_by(37) {
            for (threads, ahead) in [(1, 1), (2, 1), (3, 9)] {
                for streamed in [false, true] {
                    walks.store(0, Ordering::Relaxed);
                    let (mut made, mut handed) = (Vec::new(), 0);
                    let pieces = Pieces { piece, threads, ahead };
                    let mut stream = text;
                    let input = match streamed {
                        false => PieceInput::Bytes(text, &ends_in_comment),
                        true => PieceInput::Stream(&mut stream, Some(&ends_in_comment)),
                    };
                    walk_in_order(input, &pieces, walk, |(games, _)| {
                        made.extend(games.into_iter().map(|(offset, ..)| offset));
                        handed += 1;
                        true
                    })
                    .unwrap();
                    let case = format!("pieces of {piece} bytes, {threads} threads, streamed: {streamed}");
                    assert_eq!(made, starts[..starts.len() - 1], "{case}");
                    assert!(!made.contains(&unreadable));
                    // A cut found inside a comment costs the pieces cut after it, once: from then
                    // on the text is cut by the rule that looks at comments.
                    let walked = walks.load(Ordering::Relaxed);
                    assert!(walked <= handed + ahead + 1, "{case}: {walked} walks, {handed} pieces");
                    cut_again[usize::from(streamed)] += usize::from(walked > handed);
                }
            }
        }
        assert!(cut_again.iter().all(|&n| n > 0), "{cut_again:?}");
    }

    #[test]
    fn a_stream_begins_with_small_pieces_that_grow_to_the_size_asked_for() {
        let sample = include_bytes!("../../../../samples/famous-games.pgn");
        let text = sample.repeat((7 << 20) / sample.len() + 1);
        let pieces = Pieces::new(4 << 20, 2);
        let sizes = |input: PieceInput<'_, usize>| {
            let mut sizes = Vec::new();
            walk_in_order(
                input,
                &pieces,
                |text: &[u8], _| text.len(),
                |len| {
                    sizes.push(len);
                    true
                },
            )
            .unwrap();
            sizes
        };
        let streamed = sizes(PieceInput::Stream(&mut &text[..], None));
        // 1 MB, 2 MB, then the 4 MB asked for, each read and cut before the last game start
        // in it (a game of the sample is shorter than 4 kB), and what is left.
        assert_eq!(streamed.len(), 4, "{streamed:?}");
        for (len, most) in streamed.iter().zip([1 << 20, 2 << 20, 4 << 20]) {
            assert!((most - 4096..=most).contains(len), "{streamed:?}");
        }
        assert_eq!(streamed.iter().sum::<usize>(), text.len());
        // Text in memory is cut at the size asked for from the start: nothing to wait for.
        assert_eq!(sizes(PieceInput::Bytes(&text, &|_| false)).len(), 2);
    }

    #[test]
    fn a_read_error_comes_after_the_pieces_before_it_and_emit_can_stop() {
        let text = include_bytes!("../../../../samples/famous-games.pgn");
        let (read, made) =
            games(PieceInput::Stream(&mut Failing(&text[..]), Some(&ends_in_comment)), &Pieces::new(100, 2));
        assert_eq!(read.unwrap_err().to_string(), "the disk is gone");
        // Every piece before the error is handed on: the games up to the last whole one read.
        let handed = made.concat();
        assert_eq!(handed.len(), 11);
        assert!(handed.windows(2).all(|w| w[0].0 < w[1].0));
        let mut pieces_handed = 0;
        let stopped = walk_in_order(
            PieceInput::Bytes(text, &|_| false),
            &Pieces::new(100, 2),
            |text: &[u8], _| text.len(),
            |_| {
                pieces_handed += 1;
                pieces_handed < 3
            },
        );
        assert!(stopped.is_ok());
        assert_eq!(pieces_handed, 3);
    }

    #[test]
    fn pieces_are_walked_on_every_thread_at_once() {
        use std::sync::atomic::AtomicUsize;
        use std::time::{Duration, Instant};
        let text = include_bytes!("../../../../samples/famous-games.pgn");
        for streamed in [false, true] {
            let (walking, most) = (AtomicUsize::new(0), AtomicUsize::new(0));
            // Each walk waits until the other thread walks too; alone it gives up after a while,
            // so that walks made one at a time fail the test instead of hanging it.
            let walk = |text: &[u8], _| {
                let now = walking.fetch_add(1, Ordering::SeqCst) + 1;
                most.fetch_max(now, Ordering::SeqCst);
                let start = Instant::now();
                while most.load(Ordering::SeqCst) < 2 && start.elapsed() < Duration::from_secs(10) {
                    thread::sleep(Duration::from_millis(1));
                }
                walking.fetch_sub(1, Ordering::SeqCst);
                text.len()
            };
            let mut stream = &text[..];
            let input =
                if streamed { PieceInput::Stream(&mut stream, None) } else { PieceInput::Bytes(text, &|_| false) };
            walk_in_order(input, &Pieces::new(1000, 2), walk, |_| true).unwrap();
            assert_eq!(most.into_inner(), 2, "streamed: {streamed}");
        }
    }

    #[test]
    fn a_walk_that_panics_panics_the_caller_and_hangs_nothing() {
        let text = include_bytes!("../../../../samples/famous-games.pgn");
        for threads in [1, 2] {
            let walked = std::panic::catch_unwind(|| {
                let walk = |text: &[u8], offset: u64| {
                    assert!(offset < 2000, "the disk is gone");
                    text.len()
                };
                walk_in_order(PieceInput::Bytes(text, &|_| false), &Pieces::new(100, threads), walk, |_| true)
            });
            let panic = walked.unwrap_err();
            assert_eq!(panic.downcast_ref::<&str>(), Some(&"the disk is gone"), "{threads} threads");
        }
    }
}
