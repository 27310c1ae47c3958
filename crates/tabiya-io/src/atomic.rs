//! Writing files so that an interruption never leaves a half-written file in place.

use std::fs::{self, File};
use std::io::{self, BufWriter, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

/// A file written to a temporary name in the target's directory and renamed into place by
/// [`AtomicFile::commit`]. Dropped without commit, the temporary file is removed and the
/// target is untouched.
#[derive(Debug)]
pub struct AtomicFile {
    target: PathBuf,
    temp: PathBuf,
    writer: Option<BufWriter<File>>,
}

impl AtomicFile {
    pub fn create(target: impl AsRef<Path>) -> io::Result<AtomicFile> {
        let target = target.as_ref().to_path_buf();
        let name = target
            .file_name()
            .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "output path has no file name"))?;
        let dir = match target.parent() {
            Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
            _ => PathBuf::from("."),
        };
        // Same directory, so the rename cannot cross file systems.
        for attempt in 0u32.. {
            let mut temp_name = std::ffi::OsString::from(".");
            temp_name.push(name);
            temp_name.push(format!(".{}.{attempt}.tmp", std::process::id()));
            let temp = dir.join(temp_name);
            match File::options().write(true).create_new(true).open(&temp) {
                Ok(file) => {
                    return Ok(AtomicFile { target, temp, writer: Some(BufWriter::with_capacity(1 << 16, file)) });
                }
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists && attempt < 100 => continue,
                Err(e) => return Err(e),
            }
        }
        unreachable!("the loop returns")
    }

    pub fn target(&self) -> &Path {
        &self.target
    }

    /// Flushes what was written so far and returns a second handle on the temporary file, with
    /// which another thread can wait until that is on disk (`File::sync_data`) while writing
    /// goes on: a long write synced as it goes leaves [`AtomicFile::commit`] less to wait for.
    /// The target is untouched.
    pub fn flushed_handle(&mut self) -> io::Result<File> {
        let writer = self.writer.as_mut().expect("writer is present until commit");
        writer.flush()?;
        writer.get_ref().try_clone()
    }

    /// Flushes, syncs and renames the temporary file onto the target.
    pub fn commit(mut self) -> io::Result<()> {
        let writer = self.writer.take().expect("writer is present until commit");
        let file = writer.into_inner().map_err(|e| e.into_error())?;
        file.sync_all()?;
        drop(file);
        fs::rename(&self.temp, &self.target)
    }
}

impl Write for AtomicFile {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.writer.as_mut().expect("writer is present until commit").write(buf)
    }

    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        self.writer.as_mut().expect("writer is present until commit").write_all(buf)
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
        if self.writer.take().is_some() {
            let _ = fs::remove_file(&self.temp);
        }
    }
}

/// Writes `bytes` to `path` atomically.
pub fn write_atomic(path: impl AsRef<Path>, bytes: &[u8]) -> io::Result<()> {
    let mut file = AtomicFile::create(path)?;
    file.write_all(bytes)?;
    file.commit()
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
    fn a_synced_and_rewritten_file_replaces_the_target_only_on_commit() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("book.kob");
        write_atomic(&path, b"old").unwrap();
        let mut f = AtomicFile::create(&path).unwrap();
        f.write_all(b"0000 body").unwrap();
        f.flushed_handle().unwrap().sync_data().unwrap();
        f.write_all(b" tail").unwrap();
        f.seek(SeekFrom::Start(0)).unwrap();
        f.write_all(b"head").unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"old");
        f.commit().unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"head body tail");
    }
}
