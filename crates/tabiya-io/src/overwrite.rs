//! The rule for what a write may do to a file already at its output path: never destroy a
//! file the user did not say could go. Checked before writing starts, so that a refusal
//! leaves nothing behind.

use std::fs;
use std::io;
use std::os::unix::fs::{FileTypeExt, MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};

use crate::atomic::resolve_links;

/// What the caller allows a write to do to an existing output.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Overwrite {
    /// Replace an existing file, a read-only one too (`--force`).
    pub force: bool,
    /// The writer reads the existing file and writes it anew with more (append, edit in
    /// place): the file may exist and may be one of the inputs.
    pub update: bool,
}

/// Why an output path is refused.
#[derive(Debug, thiserror::Error)]
pub enum Refusal {
    /// A file is there and the caller did not allow replacing it.
    #[error("{}: exists (use --force to replace it)", .0.display())]
    Exists(PathBuf),
    /// A read-only file is there.
    #[error("{}: is read-only (use --force to replace it)", .0.display())]
    ReadOnly(PathBuf),
    /// The output is one of the inputs (the same file, perhaps through a link).
    #[error("{}: is also the input {} (write to another file)", .output.display(), .input.display())]
    IsInput {
        /// The output path as given.
        output: PathBuf,
        /// The input it is.
        input: PathBuf,
    },
    /// A directory is there.
    #[error("{}: is a directory", .0.display())]
    Directory(PathBuf),
    /// The path could not be examined.
    #[error("{}: {source}", path.display())]
    Io {
        /// The output path as given.
        path: PathBuf,
        /// What the system said.
        source: io::Error,
    },
}

/// Checks that writing `path` may go ahead under `overwrite`, with `inputs` the files the
/// command reads. Standard output (`-`), character devices, FIFOs and sockets are always
/// allowed (they are written directly, nothing is replaced); a block device is an existing
/// file. Links are followed: the file checked is the one that would be replaced.
pub fn check_output(path: &Path, overwrite: Overwrite, inputs: &[PathBuf]) -> Result<(), Refusal> {
    if path.as_os_str() == "-" {
        return Ok(());
    }
    let io_error = |source| Refusal::Io { path: path.to_path_buf(), source };
    let resolved = resolve_links(path).map_err(io_error)?;
    let meta = match fs::metadata(&resolved) {
        Ok(m) => m,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(io_error(e)),
    };
    let kind = meta.file_type();
    if kind.is_dir() {
        return Err(Refusal::Directory(path.to_path_buf()));
    }
    if kind.is_char_device() || kind.is_fifo() || kind.is_socket() {
        return Ok(());
    }
    let same = |input: &&PathBuf| fs::metadata(input).is_ok_and(|m| (m.dev(), m.ino()) == (meta.dev(), meta.ino()));
    if let Some(input) = inputs.iter().find(same).filter(|_| !overwrite.update) {
        return Err(Refusal::IsInput { output: path.to_path_buf(), input: input.clone() });
    }
    if overwrite.force {
        return Ok(());
    }
    if meta.permissions().mode() & 0o222 == 0 {
        return Err(Refusal::ReadOnly(path.to_path_buf()));
    }
    if overwrite.update { Ok(()) } else { Err(Refusal::Exists(path.to_path_buf())) }
}
