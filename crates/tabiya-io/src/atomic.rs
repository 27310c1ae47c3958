//! Writing files so that an interruption never leaves a half-written file in place.
//!
//! [`AtomicFile`] writes a regular file to a temporary in the target's directory and renames
//! it into place on commit. What is already at the path decides the rest:
//! - a symbolic link is followed: its target is replaced and the link stays;
//! - a replaced file's permissions (and owner, when the process may set it) are kept;
//! - a character device, FIFO or socket (`/dev/null`, `/dev/stdout`, a pipe) is written
//!   directly, never renamed over;
//! - a directory is refused before anything is created.
//!
//! Whether an existing file may be replaced at all is the caller's rule:
//! [`check_output`](crate::check_output). Every temporary is listed in [`cleanup`](crate::cleanup)
//! so that an interruption removes it.

use std::ffi::OsString;
use std::fs::{self, File, Metadata};
use std::io::{self, BufWriter, Seek, SeekFrom, Write};
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::thread::JoinHandle;

use crate::cleanup;

/// Bytes written to a temporary between two syncs begun in the background. A long write is
/// synced as it grows, on a thread of its own, so that [`AtomicFile::commit`], which must wait
/// until the file is on disk, has at most about this much left to wait for (a 110 MB tree
/// waited 76 ms for its one sync at the end).
const SYNC_EVERY: u64 = 4 << 20;

/// A file written to a temporary name in the target's directory and renamed into place by
/// [`AtomicFile::commit`]. Dropped without commit, the temporary file is removed and the
/// target is untouched. A device or FIFO target is written directly instead (see the module).
#[derive(Debug)]
pub struct AtomicFile {
    /// The path as the caller named it, for messages.
    target: PathBuf,
    place: Place,
    writer: Option<BufWriter<File>>,
    /// Bytes written since the last background sync began.
    unsynced: u64,
    /// The last background sync begun: one at a time, the bytes written meanwhile wait for
    /// the next.
    syncing: Option<JoinHandle<io::Result<()>>>,
}

/// Where the bytes go.
#[derive(Debug)]
enum Place {
    /// A temporary renamed onto `resolved` (the target with its links followed); `replaced` is
    /// the file there before, whose permissions and owner the new file takes.
    Temporary { temp: PathBuf, resolved: PathBuf, replaced: Option<Box<Metadata>> },
    /// Straight into a device, FIFO or socket.
    Direct,
}

/// A staged file, flushed and synced, waiting to be renamed into place (still listed for
/// removal on interruption).
#[derive(Debug)]
pub(crate) struct Staged {
    pub(crate) temp: PathBuf,
    pub(crate) resolved: PathBuf,
}

impl AtomicFile {
    /// Starts writing `target` (see the module for what an existing path gets).
    pub fn create(target: impl AsRef<Path>) -> io::Result<AtomicFile> {
        let target = target.as_ref().to_path_buf();
        let resolved = resolve_links(&target)?;
        let replaced = match fs::metadata(&resolved) {
            Ok(m) if m.is_dir() => return Err(io::Error::new(io::ErrorKind::IsADirectory, "is a directory")),
            Ok(m) if !m.is_file() => {
                let file = File::options().write(true).open(&resolved)?;
                return Ok(AtomicFile::new(target, Place::Direct, file));
            }
            Ok(m) => Some(Box::new(m)),
            Err(e) if e.kind() == io::ErrorKind::NotFound => None,
            Err(e) => return Err(e),
        };
        let name = resolved
            .file_name()
            .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "output path has no file name"))?;
        // Same directory, so the rename cannot cross file systems.
        let dir = parent_dir(&resolved);
        for attempt in 0u32.. {
            let temp = dir.join(temp_name(name, std::process::id(), attempt));
            match File::options().write(true).create_new(true).open(&temp) {
                Ok(file) => {
                    cleanup::register(&temp);
                    let place = Place::Temporary { temp, resolved, replaced };
                    return Ok(AtomicFile::new(target, place, file));
                }
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists && attempt < 100 => continue,
                Err(e) => return Err(e),
            }
        }
        unreachable!("the loop returns")
    }

    fn new(target: PathBuf, place: Place, file: File) -> AtomicFile {
        AtomicFile { target, place, writer: Some(writer(file)), unsynced: 0, syncing: None }
    }

    /// The path as the caller named it.
    pub fn target(&self) -> &Path {
        &self.target
    }

    /// Counts `written` bytes toward the next background sync of a temporary, and begins it
    /// when [`SYNC_EVERY`] bytes wait and the last one is done.
    fn wrote(&mut self, written: usize) -> io::Result<()> {
        self.unsynced += written as u64;
        let idle = self.syncing.as_ref().is_none_or(JoinHandle::is_finished);
        if self.unsynced < SYNC_EVERY || !idle || !matches!(self.place, Place::Temporary { .. }) {
            return Ok(());
        }
        self.unsynced = 0;
        self.synced()?;
        let writer = self.writer.as_mut().expect("writer is present until commit");
        writer.flush()?;
        let file = writer.get_ref().try_clone()?;
        // A thread that cannot be started is an error of the write, not a panic.
        self.syncing = Some(std::thread::Builder::new().name("sync".into()).spawn(move || file.sync_data())?);
        Ok(())
    }

    /// Waits for the last background sync begun: its error is the file's (a failed write is
    /// reported once, to whichever sync comes first).
    fn synced(&mut self) -> io::Result<()> {
        let Some(syncing) = self.syncing.take() else { return Ok(()) };
        syncing.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic))
    }

    /// Flushes, syncs and renames the temporary file onto the target (for a device: flushes).
    /// On failure the temporary file is removed and the target is untouched.
    pub fn commit(self) -> io::Result<()> {
        let Some(staged) = self.stage()? else { return Ok(()) };
        let renamed = fs::rename(&staged.temp, &staged.resolved).and_then(|()| sync_dir(&staged.resolved));
        if renamed.is_err() {
            let _ = fs::remove_file(&staged.temp);
        }
        cleanup::unregister(&staged.temp);
        renamed
    }

    /// Flushes; for a temporary also gives it the replaced file's permissions and owner and
    /// syncs it, and hands it back to be renamed (`None` for a device, which is done). On
    /// failure the temporary file is removed.
    pub(crate) fn stage(mut self) -> io::Result<Option<Staged>> {
        let background = self.synced();
        let writer = self.writer.take().expect("writer is present until commit");
        let place = std::mem::replace(&mut self.place, Place::Direct);
        let Place::Temporary { temp, resolved, replaced } = place else {
            return writer.into_inner().map(|_| None).map_err(|e| e.into_error());
        };
        let synced = background.and_then(|()| writer.into_inner().map_err(|e| e.into_error())).and_then(|file| {
            if let Some(old) = &replaced {
                keep_permissions_and_owner(&file, old)?;
            }
            file.sync_all()
        });
        match synced {
            Ok(()) => Ok(Some(Staged { temp, resolved })),
            Err(e) => {
                let _ = fs::remove_file(&temp);
                cleanup::unregister(&temp);
                Err(e)
            }
        }
    }
}

impl Write for AtomicFile {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let written = self.writer.as_mut().expect("writer is present until commit").write(buf)?;
        self.wrote(written)?;
        Ok(written)
    }

    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        self.writer.as_mut().expect("writer is present until commit").write_all(buf)?;
        self.wrote(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.writer.as_mut().expect("writer is present until commit").flush()
    }
}

/// Seeking flushes what was written; a file can fill in a header once it knows what follows.
impl Seek for AtomicFile {
    fn seek(&mut self, pos: SeekFrom) -> io::Result<u64> {
        self.writer.as_mut().expect("writer is present until commit").seek(pos)
    }
}

impl Drop for AtomicFile {
    fn drop(&mut self) {
        if let (Some(_), Place::Temporary { temp, .. }) = (self.writer.take(), &self.place) {
            let _ = fs::remove_file(temp);
            cleanup::unregister(temp);
        }
    }
}

/// Writes `bytes` to `path` atomically.
pub fn write_atomic(path: impl AsRef<Path>, bytes: &[u8]) -> io::Result<()> {
    AtomicFile::with_bytes(path, bytes)?.commit()
}

impl AtomicFile {
    /// A new file holding `bytes`, not yet in place: one file of a set that a
    /// [`Transaction`](crate::Transaction) commits.
    pub fn with_bytes(target: impl AsRef<Path>, bytes: &[u8]) -> io::Result<AtomicFile> {
        let mut file = AtomicFile::create(target)?;
        file.write_all(bytes)?;
        Ok(file)
    }
}

fn writer(file: File) -> BufWriter<File> {
    BufWriter::with_capacity(1 << 16, file)
}

/// `.NAME.PID.ATTEMPT.tmp`: hidden, and naming the process, so that a later writer can tell
/// the debris of a killed process from a live writer's file ([`parse_temp_name`]).
fn temp_name(name: &std::ffi::OsStr, pid: u32, attempt: u32) -> OsString {
    let mut temp = OsString::from(".");
    temp.push(name);
    temp.push(format!(".{pid}.{attempt}.tmp"));
    temp
}

/// The target's file name and the writing process of a temporary's file name.
pub(crate) fn parse_temp_name(file_name: &[u8]) -> Option<(&[u8], u32)> {
    let rest = file_name.strip_prefix(b".")?.strip_suffix(b".tmp")?;
    let mut fields = rest.rsplitn(3, |&b| b == b'.');
    let attempt = fields.next()?;
    let pid = fields.next()?;
    let name = fields.next()?;
    if attempt.is_empty() || !attempt.iter().all(u8::is_ascii_digit) {
        return None;
    }
    let pid = std::str::from_utf8(pid).ok()?.parse().ok()?;
    Some((name, pid))
}

/// The directory a path's file is in (`.` for a bare name).
pub(crate) fn parent_dir(path: &Path) -> PathBuf {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// `path` with every symbolic link of its last component followed (a link to a link too), so
/// that writing replaces the link's target and keeps the link. A dangling link gives its
/// target, which the write creates.
pub(crate) fn resolve_links(path: &Path) -> io::Result<PathBuf> {
    let mut path = path.to_path_buf();
    for _ in 0..40 {
        match fs::symlink_metadata(&path) {
            Ok(m) if m.file_type().is_symlink() => {
                let link = fs::read_link(&path)?;
                path = parent_dir(&path).join(link);
            }
            _ => return Ok(path),
        }
    }
    Err(io::Error::new(io::ErrorKind::InvalidInput, "too many levels of symbolic links"))
}

/// Makes a rename in the directory of `path` durable.
pub(crate) fn sync_dir(path: &Path) -> io::Result<()> {
    File::open(parent_dir(path))?.sync_all()
}

/// Gives the new file the replaced file's owner (when the process may: root, or a group it is
/// in) and permissions, as `cp` does over an existing file.
fn keep_permissions_and_owner(file: &File, old: &Metadata) -> io::Result<()> {
    let new = file.metadata()?;
    if (new.uid(), new.gid()) != (old.uid(), old.gid()) {
        // Refused for other users' files unless root; the permissions are kept all the same.
        let _ = std::os::unix::fs::fchown(file, Some(old.uid()), Some(old.gid()));
    }
    // After chown, which clears set-id bits.
    file.set_permissions(old.permissions())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commit_replaces_and_drop_discards() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("book.bin");
        write_atomic(&path, b"old").unwrap();
        {
            let mut f = AtomicFile::create(&path).unwrap();
            f.write_all(b"half").unwrap();
            // Dropped: an interrupted write.
        }
        assert_eq!(fs::read(&path).unwrap(), b"old");
        write_atomic(&path, b"new").unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"new");
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 1, "no temporary file is left");
    }

    #[test]
    fn a_file_synced_as_it_grows_and_rewritten_replaces_the_target_only_on_commit() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("book.kob");
        write_atomic(&path, b"old").unwrap();
        let mut f = AtomicFile::create(&path).unwrap();
        f.write_all(b"0000 body").unwrap();
        assert!(f.syncing.is_none(), "nothing to sync yet");
        let body = vec![b'.'; SYNC_EVERY as usize];
        f.write_all(&body).unwrap();
        assert!(f.syncing.is_some(), "a sync began in the background");
        f.write_all(b" tail").unwrap();
        f.seek(SeekFrom::Start(0)).unwrap();
        f.write_all(b"head").unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"old");
        f.commit().unwrap();
        let mut expected = b"head body".to_vec();
        expected.extend_from_slice(&body);
        expected.extend_from_slice(b" tail");
        assert_eq!(fs::read(&path).unwrap(), expected);
    }

    #[test]
    fn a_device_is_never_synced_in_the_background() {
        let mut f = AtomicFile::create("/dev/null").unwrap();
        f.write_all(&vec![0; SYNC_EVERY as usize + 1]).unwrap();
        assert!(f.syncing.is_none());
        f.commit().unwrap();
    }
}
