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
//! (fresh ones would be fresh pages to fault in). A stream's first pieces are small and grow
//! to the size asked for, so that no walker waits long for its first text.

use std::any::Any;
use std::collections::BTreeMap;
use std::io::{self, Read};
use std::panic::{self, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, channel};
use std::sync::{Mutex, MutexGuard, PoisonError};
use std::thread;

use super::split::{Comments, piece_end, read_piece};

/// Where the pieces' text comes from.
pub enum PieceInput<'a> {
    /// Text held in memory, a memory-mapped file's bytes for one: each piece is a slice of it.
    Bytes(&'a [u8]),
    /// A stream (a decompressed file, a pipe), read on the calling thread a piece at a time.
    Stream(&'a mut dyn Read),
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
    input: PieceInput<'_>,
    pieces: &Pieces,
    walk: impl Fn(&[u8], u64) -> T + Sync,
    mut emit: impl FnMut(T) -> bool,
) -> io::Result<()> {
    let ahead = pieces.ahead.max(1) as u64;
    let (work, to_walk) = channel::<(u64, Text<'_>, u64)>();
    let (done, walked) = channel::<(u64, thread::Result<T>)>();
    let to_walk = Mutex::new(to_walk);
    // Set when `emit` wants no more: the pieces still queued are not walked.
    let stopped = AtomicBool::new(false);
    let spare: Mutex<Vec<Vec<u8>>> = Mutex::new(Vec::new());
    // Set when the last piece is cut: buffers walked from then on are given back at once, not
    // kept (a stream's builds hold what the pieces made, and need the memory more).
    let all_cut = AtomicBool::new(false);
    std::thread::scope(|scope| {
        for _ in 0..pieces.threads.max(1) {
            let done = done.clone();
            let (to_walk, walk, spare, stopped, all_cut) = (&to_walk, &walk, &spare, &stopped, &all_cut);
            scope.spawn(move || {
                loop {
                    // The lock is let go before the walk (a guard in the loop's condition would be
                    // held through the body: one walker at a time).
                    let next = locked(to_walk).recv();
                    let Ok((number, text, offset)) = next else { break };
                    if stopped.load(Ordering::Relaxed) {
                        break;
                    }
                    // A panic is handed on in the piece's place, to be raised on the calling thread
                    // (waiting for a piece that never comes would hang).
                    let made = panic::catch_unwind(AssertUnwindSafe(|| walk(text.bytes(), offset)));
                    let panicked = made.is_err();
                    if done.send((number, made)).is_err() || panicked {
                        break;
                    }
                    if let Text::Buffer(buffer) = text {
                        // Looked at under the lock, that the last piece's clearing misses none.
                        let mut spare = locked(spare);
                        if !all_cut.load(Ordering::Relaxed) {
                            spare.push(buffer);
                        }
                    }
                }
            });
        }
        drop(done);
        let mut order = InOrder { walked, waiting: BTreeMap::new(), next: 0, panic: None };
        let mut cutter =
            Cutter { input, piece: pieces.piece, at: 0, comments: Comments::default(), rest: Vec::new(), cut: 0 };
        let (mut cut, mut ended) = (0u64, false);
        let result = loop {
            if ended && order.next == cut {
                break Ok(());
            }
            // What is walked is handed on at once; the next piece is cut when there is room.
            let full = ended || cut - order.next >= ahead;
            if !order.hand_on(&mut emit, full) {
                break Ok(());
            }
            if full {
                continue;
            }
            let mut buffer = || locked(&spare).pop().unwrap_or_default();
            match cutter.next(&mut buffer) {
                Ok((text, offset, last)) => {
                    ended = last;
                    if last {
                        let mut spare = locked(&spare);
                        all_cut.store(true, Ordering::Relaxed);
                        spare.clear();
                    }
                    if !text.bytes().is_empty() {
                        // The walkers are gone only when this scope ends.
                        let _ = work.send((cut, text, offset));
                        cut += 1;
                    }
                }
                Err(e) => {
                    // The pieces before the error are handed on first.
                    while order.next < cut && order.hand_on(&mut emit, true) {}
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

/// The pieces walked and not yet handed on, the number of the next to hand on, and the panic
/// of a walk that panicked, once its turn came.
struct InOrder<T> {
    walked: Receiver<(u64, thread::Result<T>)>,
    waiting: BTreeMap<u64, thread::Result<T>>,
    next: u64,
    panic: Option<Box<dyn Any + Send>>,
}

impl<T> InOrder<T> {
    /// Hands on every walked piece that is next in order, after waiting for one more piece to
    /// be walked when `wait` says so; false when `emit` wants no more or a walk panicked.
    fn hand_on(&mut self, emit: &mut impl FnMut(T) -> bool, wait: bool) -> bool {
        if wait {
            match self.walked.recv() {
                Ok((number, made)) => _ = self.waiting.insert(number, made),
                // Every walker has gone (only a panic ends one early).
                Err(_) => return false,
            }
        }
        while let Ok((number, made)) = self.walked.try_recv() {
            self.waiting.insert(number, made);
        }
        while let Some(made) = self.waiting.remove(&self.next) {
            self.next += 1;
            match made {
                Ok(made) => {
                    if !emit(made) {
                        return false;
                    }
                }
                Err(panic) => {
                    self.panic = Some(panic);
                    return false;
                }
            }
        }
        true
    }
}

/// Cuts the pieces of a [`PieceInput`] one after the other.
struct Cutter<'a> {
    input: PieceInput<'a>,
    piece: usize,
    /// The offset of the next piece's first byte.
    at: u64,
    /// What cutting text in memory found out so far.
    comments: Comments,
    /// Read from a stream for the next piece: the game the last piece did not finish.
    rest: Vec<u8>,
    /// The pieces cut so far.
    cut: u32,
}

impl<'a> Cutter<'a> {
    /// The next piece, its offset, and whether it is the last.
    fn next(&mut self, buffer: &mut impl FnMut() -> Vec<u8>) -> io::Result<(Text<'a>, u64, bool)> {
        let offset = self.at;
        let stream_piece = self.stream_piece();
        let (text, last) = match &mut self.input {
            PieceInput::Bytes(bytes) => {
                let bytes: &'a [u8] = bytes;
                let start = offset as usize;
                let end = piece_end(bytes, start, self.piece, &mut self.comments);
                (Text::Slice(&bytes[start..end]), end == bytes.len())
            }
            PieceInput::Stream(input) => {
                let mut text = buffer();
                text.clear();
                text.append(&mut self.rest);
                let ended = read_piece(*input, stream_piece, &mut text, &mut self.rest)?;
                (Text::Buffer(text), ended)
            }
        };
        self.at += text.bytes().len() as u64;
        self.cut += 1;
        Ok((text, offset, last))
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

    /// What each piece's games are, walked from `text` cut as `input` is.
    fn games(input: PieceInput<'_>, pieces: &Pieces) -> (io::Result<()>, Vec<Vec<Seen>>) {
        let walk = |text: &[u8], offset: u64| -> Vec<Seen> {
            let games = PgnWalk::at_offset(text, offset, WalkOptions::default());
            games.flatten().map(|g| (g.offset, g.length, g.tags().count())).collect()
        };
        let mut made = Vec::new();
        let read = walk_in_order(input, pieces, walk, |piece| {
            made.push(piece);
            true
        });
        (read, made)
    }

    #[test]
    fn pieces_in_memory_and_streamed_give_the_games_of_the_whole_text_in_order() {
        let text = include_bytes!("../../../../samples/famous-games.pgn");
        let (_, whole) = games(PieceInput::Bytes(text), &Pieces::new(usize::MAX, 1));
        let whole = whole.concat();
        // The sample's twelve games, the first at its start, each after the one before.
        assert_eq!(whole.len(), 12);
        assert_eq!(whole[0].0, 0);
        assert!(whole.windows(2).all(|w| w[0].0 + w[0].1 <= w[1].0));
        for piece in [1, 50, 700, 5000, 1 << 20] {
            for (threads, ahead) in [(1, 1), (2, 1), (3, 9)] {
                let pieces = Pieces { piece, threads, ahead };
                let (read, sliced) = games(PieceInput::Bytes(text), &pieces);
                read.unwrap();
                assert_eq!(sliced.concat(), whole, "slices of {piece} bytes, {threads} threads");
                let (read, streamed) = games(PieceInput::Stream(&mut &text[..]), &pieces);
                read.unwrap();
                assert_eq!(streamed.concat(), whole, "a stream in pieces of {piece} bytes, {threads} threads");
                // No piece is empty, and only the last holds less than asked for.
                for made in [&sliced, &streamed] {
                    assert!(made.len() <= text.len().div_ceil(piece), "{piece}: {} pieces", made.len());
                    assert!(made.len() > 1 || piece >= text.len() / 2, "{piece}: {} pieces", made.len());
                }
            }
        }
        let (_, empty) = games(PieceInput::Bytes(b""), &Pieces::new(100, 2));
        assert!(empty.is_empty());
    }

    #[test]
    fn a_stream_begins_with_small_pieces_that_grow_to_the_size_asked_for() {
        let sample = include_bytes!("../../../../samples/famous-games.pgn");
        let text = sample.repeat((7 << 20) / sample.len() + 1);
        let pieces = Pieces::new(4 << 20, 2);
        let sizes = |input: PieceInput<'_>| {
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
        let streamed = sizes(PieceInput::Stream(&mut &text[..]));
        // 1 MB, 2 MB, then the 4 MB asked for, each read and cut before the last game start
        // in it (a game of the sample is shorter than 4 kB), and what is left.
        assert_eq!(streamed.len(), 4, "{streamed:?}");
        for (len, most) in streamed.iter().zip([1 << 20, 2 << 20, 4 << 20]) {
            assert!((most - 4096..=most).contains(len), "{streamed:?}");
        }
        assert_eq!(streamed.iter().sum::<usize>(), text.len());
        // Text in memory is cut at the size asked for from the start: nothing to wait for.
        assert_eq!(sizes(PieceInput::Bytes(&text)).len(), 2);
    }

    #[test]
    fn a_read_error_comes_after_the_pieces_before_it_and_emit_can_stop() {
        let text = include_bytes!("../../../../samples/famous-games.pgn");
        let (read, made) = games(PieceInput::Stream(&mut Failing(&text[..])), &Pieces::new(100, 2));
        assert_eq!(read.unwrap_err().to_string(), "the disk is gone");
        // Every piece before the error is handed on: the games up to the last whole one read.
        let handed = made.concat();
        assert_eq!(handed.len(), 11);
        assert!(handed.windows(2).all(|w| w[0].0 < w[1].0));
        let mut pieces_handed = 0;
        let stopped = walk_in_order(
            PieceInput::Bytes(text),
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
            let input = if streamed { PieceInput::Stream(&mut stream) } else { PieceInput::Bytes(text) };
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
                walk_in_order(PieceInput::Bytes(text), &Pieces::new(100, threads), walk, |_| true)
            });
            let panic = walked.unwrap_err();
            assert_eq!(panic.downcast_ref::<&str>(), Some(&"the disk is gone"), "{threads} threads");
        }
    }
}
