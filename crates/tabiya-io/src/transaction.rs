//! Replacing every file of a database or book at once: after a kill at any instant the set on
//! disk is the old whole or the new whole, once the next writer or reader has opened it.
//!
//! # The protocol
//! A writer
//! 1. [`Transaction::begin`]s: takes the stem's [`WriteLock`], then recovers (below);
//! 2. writes each new file as an [`AtomicFile`] (a temporary beside its target);
//! 3. [`Transaction::commit`]s:
//!    1. flushes each temporary, gives it the permissions of the file it replaces, syncs it;
//!    2. writes the journal `.STEM.journal` (itself through a synced temporary renamed into
//!       place, so it is whole or absent) naming each rename `temporary -> target` and each
//!       file of the old set to remove (a part the new set does not have), and syncs the
//!       directory: from here on, the new set is decided;
//!    3. renames, removes, syncs the directory, removes the journal.
//!
//! A kill before 3.2 leaves the old set and temporaries of a dead process; a kill after it
//! leaves the journal. Recovery, under the lock, rolls a journal forward (a rename whose
//! temporary is gone was done; a removal of a missing file was done) and removes the
//! temporaries of the stem whose process is dead. Writers recover in `begin`; readers call
//! [`Transaction::recover`], which costs one `stat` when there is nothing to recover. Signals
//! wait for a commit's renames to finish (see [`cleanup`](crate::cleanup)).

use std::ffi::OsStr;
use std::fs;
use std::io::{self, Write};
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

use crate::atomic::{AtomicFile, Staged, parent_dir, parse_temp_name, sync_dir};
use crate::cleanup;
use crate::lock::{WriteLock, sibling};

const MAGIC: &[u8] = b"tabiya-journal 1\n";
const END: &[u8] = b"end\n";

/// A change of the whole file set of one database or book (see the module).
pub struct Transaction {
    stem: PathBuf,
    stale: Vec<PathBuf>,
    on_step: Option<Box<dyn FnMut(usize) + Send>>,
    _lock: WriteLock,
}

impl std::fmt::Debug for Transaction {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Transaction").field("stem", &self.stem).field("stale", &self.stale).finish_non_exhaustive()
    }
}

/// One entry of a journal.
#[derive(Debug, PartialEq, Eq)]
enum Entry {
    Rename { temp: PathBuf, target: PathBuf },
    Remove(PathBuf),
}

impl Transaction {
    /// Locks the database or book `stem` (`dir/games` for `dir/games.si4`; for a single file,
    /// its path) for writing, and completes or clears what an interrupted writer left. When
    /// another writer holds the lock, calls `on_wait` once and waits.
    pub fn begin(stem: &Path, on_wait: impl FnOnce()) -> io::Result<Transaction> {
        let lock = WriteLock::acquire(stem, on_wait)?;
        roll_forward(stem)?;
        remove_debris(stem)?;
        Ok(Transaction { stem: stem.to_path_buf(), stale: Vec::new(), on_step: None, _lock: lock })
    }

    /// Completes a commit that was interrupted, for a reader about to open `stem`; true when
    /// there was one. Waits while a writer is committing.
    pub fn recover(stem: &Path) -> io::Result<bool> {
        if !journal_path(stem).exists() {
            return Ok(false);
        }
        let _lock = WriteLock::acquire(stem, || {})?;
        roll_forward(stem)
    }

    /// The stem this transaction changes.
    pub fn stem(&self) -> &Path {
        &self.stem
    }

    /// Marks a file of the old set that the new set does not have (`book_3.kob` when the new
    /// book has two parts): the commit removes it, with the renames, if it exists then.
    pub fn remove(&mut self, path: impl Into<PathBuf>) {
        self.stale.push(path.into());
    }

    /// Calls `hook` with the number of each step of the commit once it is done: 0 the files
    /// are synced, 1 the journal is in place, then one per rename and per removal, and last the
    /// journal is removed. For tests that interrupt a commit at every step.
    pub fn on_step(&mut self, hook: impl FnMut(usize) + Send + 'static) {
        self.on_step = Some(Box::new(hook));
    }

    /// Puts `files` (and the removals) in place as one change; see the module. On an error
    /// before the journal is written, the temporaries are removed and the old set is whole;
    /// after it, the next [`Transaction::begin`] or [`Transaction::recover`] completes it.
    pub fn commit(mut self, files: Vec<AtomicFile>) -> io::Result<()> {
        let mut step = 0;
        let mut done = |this: &mut Transaction| {
            if let Some(hook) = &mut this.on_step {
                hook(step);
            }
            step += 1;
        };
        let staged = stage_all(files)?;
        done(&mut self);
        let dir = parent_dir(&self.stem);
        let mut entries: Vec<Entry> =
            staged.iter().map(|s| Entry::Rename { temp: s.temp.clone(), target: s.resolved.clone() }).collect();
        entries.extend(self.stale.iter().filter(|p| p.exists()).map(|p| Entry::Remove(p.clone())));
        let journal = journal_path(&self.stem);
        let staged_journal = AtomicFile::create(&journal).and_then(|mut file| {
            file.write_all(&encode(&dir, &entries))?;
            file.stage()
        });
        let staged_journal = match staged_journal {
            Ok(Some(s)) => s,
            Ok(None) => return Err(io::Error::other("the journal is not a regular file")),
            Err(e) => {
                discard(&staged);
                return Err(e);
            }
        };
        // Held until the renames are done: an interruption lets the commit finish.
        let mut live = cleanup::hold();
        for s in staged.iter().chain([&staged_journal]) {
            cleanup::forget(&mut live, &s.temp);
        }
        if let Err(e) = fs::rename(&staged_journal.temp, &journal).and_then(|()| sync_dir(&journal)) {
            let _ = fs::remove_file(&staged_journal.temp);
            discard(&staged);
            return Err(e);
        }
        done(&mut self);
        apply(&journal, &entries, || done(&mut self))?;
        drop(live);
        done(&mut self);
        Ok(())
    }
}

/// The journal of `stem`.
fn journal_path(stem: &Path) -> PathBuf {
    sibling(stem, ".", ".journal")
}

/// Stages every file; on an error, removes the temporaries of all.
fn stage_all(files: Vec<AtomicFile>) -> io::Result<Vec<Staged>> {
    let mut staged = Vec::with_capacity(files.len());
    let mut files = files.into_iter();
    for file in files.by_ref() {
        match file.stage() {
            Ok(s) => staged.extend(s),
            Err(e) => {
                // The rest are dropped with `files`, which removes theirs.
                discard(&staged);
                return Err(e);
            }
        }
    }
    Ok(staged)
}

/// Removes staged temporaries that will not be renamed.
fn discard(staged: &[Staged]) {
    for s in staged {
        let _ = fs::remove_file(&s.temp);
        cleanup::unregister(&s.temp);
    }
}

/// Does what a journal says (again, if it was partly done), then removes it.
fn apply(journal: &Path, entries: &[Entry], mut done: impl FnMut()) -> io::Result<()> {
    let mut dirs: Vec<PathBuf> = vec![parent_dir(journal)];
    for entry in entries {
        let path = match entry {
            Entry::Rename { temp, target } => {
                if temp.exists() {
                    fs::rename(temp, target)?;
                }
                target
            }
            Entry::Remove(path) => {
                match fs::remove_file(path) {
                    Err(e) if e.kind() != io::ErrorKind::NotFound => return Err(e),
                    _ => {}
                }
                path
            }
        };
        let dir = parent_dir(path);
        if !dirs.contains(&dir) {
            dirs.push(dir);
        }
        done();
    }
    for dir in &dirs {
        fs::File::open(dir)?.sync_all()?;
    }
    fs::remove_file(journal)?;
    sync_dir(journal)
}

/// Completes the commit whose journal is beside `stem`, if any (the caller holds the lock).
fn roll_forward(stem: &Path) -> io::Result<bool> {
    let journal = journal_path(stem);
    let bytes = match fs::read(&journal) {
        Ok(b) => b,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(false),
        Err(e) => return Err(e),
    };
    let entries = decode(&parent_dir(stem), &bytes)
        .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidData, format!("{}: not a journal", journal.display())))?;
    apply(&journal, &entries, || {})?;
    Ok(true)
}

/// Removes the temporaries of `stem`'s files (`STEM`, `STEM.*`, `STEM_*` and the journal
/// `.STEM.journal`) that a process now dead left (the caller holds the lock, and has rolled any journal forward).
fn remove_debris(stem: &Path) -> io::Result<()> {
    let dir = parent_dir(stem);
    let stem_name = stem.file_name().map_or(&[][..], OsStr::as_bytes);
    let own = std::process::id();
    for entry in fs::read_dir(&dir)? {
        let entry = entry?;
        let name = entry.file_name();
        let Some((target, pid)) = parse_temp_name(name.as_bytes()) else { continue };
        let ours = target
            .strip_prefix(b".")
            .unwrap_or(target)
            .strip_prefix(stem_name)
            .is_some_and(|rest| rest.is_empty() || rest[0] == b'.' || rest[0] == b'_');
        if ours && pid != own && !alive(pid) {
            fs::remove_file(entry.path())?;
        }
    }
    Ok(())
}

/// True unless no process `pid` exists (one of another user's exists too).
fn alive(pid: u32) -> bool {
    let Ok(pid) = libc::pid_t::try_from(pid) else { return false };
    // SAFETY: signal 0 only asks whether the process exists.
    let exists = unsafe { libc::kill(pid, 0) } == 0;
    exists || io::Error::last_os_error().raw_os_error() == Some(libc::EPERM)
}

/// The journal's bytes: a magic line, entries `R temp NUL target NUL` and `D path NUL` (a NUL
/// cannot be in a path), an end line. Paths in `dir` are written as bare names, so that a
/// moved directory still recovers; others absolute.
fn encode(dir: &Path, entries: &[Entry]) -> Vec<u8> {
    let mut out = MAGIC.to_vec();
    let path = |out: &mut Vec<u8>, p: &Path| {
        let p = match p.file_name() {
            Some(name) if parent_dir(p) == dir => PathBuf::from(name),
            _ => std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf()),
        };
        out.extend_from_slice(p.as_os_str().as_bytes());
        out.push(0);
    };
    for entry in entries {
        match entry {
            Entry::Rename { temp, target } => {
                out.push(b'R');
                path(&mut out, temp);
                path(&mut out, target);
            }
            Entry::Remove(p) => {
                out.push(b'D');
                path(&mut out, p);
            }
        }
    }
    out.extend_from_slice(END);
    out
}

/// The entries of a journal, paths joined to `dir`; `None` when it is not one.
fn decode(dir: &Path, bytes: &[u8]) -> Option<Vec<Entry>> {
    let mut rest = bytes.strip_prefix(MAGIC)?.strip_suffix(END)?;
    let path = |rest: &mut &[u8]| {
        let end = rest.iter().position(|&b| b == 0)?;
        let p = dir.join(OsStr::from_bytes(&rest[..end]));
        *rest = &rest[end + 1..];
        Some(p)
    };
    let mut entries = Vec::new();
    while let Some((&kind, tail)) = rest.split_first() {
        rest = tail;
        entries.push(match kind {
            b'R' => Entry::Rename { temp: path(&mut rest)?, target: path(&mut rest)? },
            b'D' => Entry::Remove(path(&mut rest)?),
            _ => return None,
        });
    }
    Some(entries)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_journal_reads_back_what_was_written() {
        let dir = Path::new("/data/books");
        let entries = vec![
            Entry::Rename { temp: dir.join(".b_0.kob.7.0.tmp"), target: dir.join("b_0.kob") },
            Entry::Rename { temp: PathBuf::from("/elsewhere/.x\n.1.0.tmp"), target: PathBuf::from("/elsewhere/x\n") },
            Entry::Remove(dir.join("b_3.kob")),
        ];
        let bytes = encode(dir, &entries);
        assert!(bytes.windows(9).any(|w| w == b"Rb_0.kob\0" || w == b"\0b_0.kob\0"), "bare names in dir");
        assert_eq!(decode(dir, &bytes), Some(entries));
        assert_eq!(decode(dir, &bytes[..bytes.len() - 1]), None, "a cut journal is no journal");
    }
}
