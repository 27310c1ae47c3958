//! One writer at a time per database or book: an exclusive advisory lock (`flock`, through
//! `File::lock`) on `.STEM.lock` beside it. Readers take no lock.
//!
//! The lock is on a file of its own rather than on the database's files because a commit
//! renames new files over those: a lock on the old file would not stop a writer that opens
//! the new one. The lock file is removed when the lock is released, so it is not left beside
//! the database; the usual race of removing a lock file is closed by checking, once locked,
//! that the file locked is still the one at the path (a writer that locked a file its holder
//! then removed starts again). A lock file left by a killed writer is locked, taken over and
//! removed like any other: `flock` ends with its process.

use std::fs::{self, File, TryLockError};
use std::io;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use crate::cleanup;

/// What the program says when a writer has to wait for another: set once by the program
/// (the command line prints a line), so that a wait is never silent whichever library writer
/// takes the lock.
static WAIT_NOTICE: OnceLock<fn(&Path)> = OnceLock::new();

/// Sets, once per process, the notice given with the lock file's path whenever a writer waits
/// for another writer's lock. Later calls are ignored: the first program-wide choice stands.
pub fn set_wait_notice(notice: fn(&Path)) {
    let _ = WAIT_NOTICE.set(notice);
}

/// The exclusive right to change the database or book at a stem; released on drop.
#[derive(Debug)]
pub struct WriteLock {
    path: PathBuf,
    // Held for the lock; closing it releases the lock.
    _file: File,
}

impl WriteLock {
    /// Locks the database or book `stem` (e.g. `dir/games` for `dir/games.si4`, or a single
    /// file's path). When another writer holds it, gives the program's wait notice (see
    /// [`set_wait_notice`]) and calls `on_wait`, once each, then waits for it.
    pub fn acquire(stem: &Path, on_wait: impl FnOnce()) -> io::Result<WriteLock> {
        let path = sibling(stem, ".", ".lock");
        let mut on_wait = Some(on_wait);
        loop {
            let file = File::options().read(true).write(true).create(true).truncate(false).open(&path)?;
            match file.try_lock() {
                Ok(()) => {}
                Err(TryLockError::WouldBlock) => {
                    if let Some(tell) = on_wait.take() {
                        if let Some(notice) = WAIT_NOTICE.get() {
                            notice(&path);
                        }
                        tell();
                    }
                    file.lock()?;
                }
                Err(TryLockError::Error(e)) => return Err(e),
            }
            let locked = file.metadata()?;
            let current = fs::metadata(&path);
            if current.is_ok_and(|m| (m.dev(), m.ino()) == (locked.dev(), locked.ino())) {
                cleanup::register(&path);
                return Ok(WriteLock { path, _file: file });
            }
            // The holder removed the file we waited on: lock the one at the path now.
        }
    }

    /// The lock file.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl Drop for WriteLock {
    fn drop(&mut self) {
        // Removed while still locked (the file closes after this), see the module.
        let _ = fs::remove_file(&self.path);
        cleanup::unregister(&self.path);
    }
}

/// `DIR/PREFIX + STEM's name + SUFFIX`: the hidden files that go with a stem.
pub(crate) fn sibling(stem: &Path, prefix: &str, suffix: &str) -> PathBuf {
    let mut name = std::ffi::OsString::from(prefix);
    name.push(stem.file_name().unwrap_or(stem.as_os_str()));
    name.push(suffix);
    crate::atomic::parent_dir(stem).join(name)
}
