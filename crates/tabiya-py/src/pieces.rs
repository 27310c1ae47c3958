//! PGN text read a piece at a time and walked on every core, what each piece gives handed on in
//! file order: how `positions()` reads PGN (no `Game` is built, no item per game crosses a
//! thread).
//!
//! One thread reads the pieces (`pgn::read_piece`: whole games each), `threads` threads walk
//! them, and the calling thread puts what they make back in file order. No barrier between
//! rounds of pieces: a thread that finishes a piece takes the next one, and the reader stays
//! at most [`AHEAD_PER_THREAD`] pieces a thread ahead of what has been handed on, so memory
//! stays flat whatever the input's length.

use std::collections::BTreeMap;
use std::io::{self, Read};
use std::sync::mpsc::{channel, sync_channel};
use std::sync::{Mutex, MutexGuard};

/// Pieces read and not yet handed on, per walking thread.
const AHEAD_PER_THREAD: usize = 3;

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Reads `input` in pieces of about `piece` bytes, makes each into a `T` with `walk(text,
/// offset of its first byte in the input)` on `threads` threads, and hands the `T`s to `emit`
/// in file order until it returns false. A read error ends the walk: the pieces before it are
/// handed on, then it is returned.
pub fn walk_in_order<T: Send>(
    mut input: Box<dyn Read + Send>,
    piece: usize,
    threads: usize,
    walk: impl Fn(&[u8], u64) -> T + Sync,
    mut emit: impl FnMut(T) -> bool,
) -> io::Result<()> {
    let threads = threads.max(1);
    // A token for each piece read and not yet handed on: the reader waits for room. The other
    // channels need no bound of their own.
    let (room, taken) = sync_channel::<()>(AHEAD_PER_THREAD * threads);
    let (work, to_walk) = channel::<(u64, Vec<u8>, u64)>();
    let (done, walked) = channel::<(u64, T)>();
    let to_walk = Mutex::new(to_walk);
    // Texts walked, for the pieces after (fresh buffers would be fresh pages to fault in).
    let spare: Mutex<Vec<Vec<u8>>> = Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..threads {
            let done = done.clone();
            let (to_walk, walk, spare) = (&to_walk, &walk, &spare);
            scope.spawn(move || {
                while let Ok((number, text, offset)) = lock(to_walk).recv() {
                    let made = walk(&text, offset);
                    if done.send((number, made)).is_err() {
                        break;
                    }
                    lock(spare).push(text);
                }
            });
        }
        drop(done);
        let spare = &spare;
        let reader = scope.spawn(move || -> io::Result<()> {
            let mut rest = Vec::new();
            let (mut number, mut offset) = (0u64, 0u64);
            loop {
                if room.send(()).is_err() {
                    return Ok(());
                }
                let mut text = lock(spare).pop().unwrap_or_default();
                text.clear();
                text.append(&mut rest);
                let ended = tabiya_chess::pgn::read_piece(&mut input, piece, &mut text, &mut rest)?;
                let len = text.len() as u64;
                if len > 0 {
                    if work.send((number, text, offset)).is_err() {
                        return Ok(());
                    }
                    number += 1;
                    offset += len;
                }
                if ended {
                    return Ok(());
                }
            }
        });
        let mut waiting = BTreeMap::new();
        let mut next = 0u64;
        'walked: for (number, made) in walked {
            waiting.insert(number, made);
            while let Some(made) = waiting.remove(&next) {
                if !emit(made) {
                    break 'walked;
                }
                // This piece's token: room for the reader.
                let _ = taken.recv();
                next += 1;
            }
        }
        // Gone, the receivers stop the reader and the walkers.
        drop(taken);
        reader.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic))
    })
}
