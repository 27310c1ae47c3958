//! Items made on other threads, taken one at a time by a Python iterator: a producer thread
//! hands them over in batches (one channel message per batch, not per game), and stops when
//! the iterator is dropped.

use std::collections::VecDeque;
use std::sync::Mutex;
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};

use pyo3::prelude::*;

/// Items per channel message.
const BATCH: usize = 256;
/// Messages in flight: the producer runs this far ahead of Python, no further.
const IN_FLIGHT: usize = 16;

/// What the producer hands items to.
pub struct Emitter<T> {
    sender: SyncSender<Vec<T>>,
    batch: Vec<T>,
    batch_len: usize,
}

impl<T> Emitter<T> {
    /// Hands `item` over; false when the consumer is gone (the producer should stop).
    pub fn emit(&mut self, item: T) -> bool {
        self.batch.push(item);
        if self.batch.len() >= self.batch_len {
            return self.flush();
        }
        true
    }

    fn flush(&mut self) -> bool {
        if self.batch.is_empty() {
            return true;
        }
        let batch = std::mem::replace(&mut self.batch, Vec::with_capacity(self.batch_len));
        self.sender.send(batch).is_ok()
    }
}

/// The consumer's end.
pub struct Stream<T> {
    state: Mutex<(Receiver<Vec<T>>, VecDeque<T>)>,
}

impl<T: Send + 'static> Stream<T> {
    /// Runs `produce` on a thread of its own with an emitter of batches of `batch_len` items
    /// (0: the default).
    pub fn spawn(batch_len: usize, produce: impl FnOnce(&mut Emitter<T>) + Send + 'static) -> Stream<T> {
        let batch_len = if batch_len == 0 { BATCH } else { batch_len };
        let (sender, receiver) = sync_channel(IN_FLIGHT);
        std::thread::spawn(move || {
            let mut emitter = Emitter { sender, batch: Vec::with_capacity(batch_len), batch_len };
            produce(&mut emitter);
            emitter.flush();
        });
        Stream { state: Mutex::new((receiver, VecDeque::new())) }
    }

    /// The next item, waiting for it without holding the GIL; `None` at the end.
    pub fn next(&self, py: Python<'_>) -> Option<T> {
        let mut state = self.state.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        let (receiver, buffered) = &mut *state;
        if let Some(item) = buffered.pop_front() {
            return Some(item);
        }
        // Moved in as `&mut` (a `Receiver` is `Send`, not `Sync`).
        let receiver: &mut Receiver<Vec<T>> = receiver;
        let batch = py.detach(move || receiver.recv()).ok()?;
        buffered.extend(batch);
        buffered.pop_front()
    }
}
