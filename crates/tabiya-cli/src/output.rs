//! Where a command writes, under the rule that nothing is destroyed unasked: an existing
//! output is refused without `--force` (exit 2), as is an output that is also an input;
//! devices, FIFOs and standard output are written directly; a symbolic link is written
//! through to its target; a replaced file keeps its mode. The mechanisms are tabiya-io's
//! ([`tabiya_io::check_output`], [`tabiya_io::AtomicFile`]); this file applies them with the
//! command line's `--force` and inputs, set once by `main` ([`configure`]).
//!
//! A file whose name ends in a compression's extension (`subset.pgn.zst`, `.gz`, `.bz2`,
//! `.xz`) is written compressed, whatever writes it: the format is the inner extension's
//! (`formats::output_format`). A zip is an archive, not a stream: refused.

use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use tabiya_io::compression::strip_compression_extension;
use tabiya_io::{AtomicFile, Compression, Encoder, Overwrite, Refusal, check_output};

use crate::report::CliError;

/// The command line's part in the rule: `--force`, and the files the command reads.
#[derive(Debug, Default)]
struct Rule {
    force: bool,
    inputs: Vec<PathBuf>,
}

static RULE: OnceLock<Rule> = OnceLock::new();

/// Sets `--force` and the command's inputs for every output of the run (once, by `main`).
pub fn configure(force: bool, inputs: &[PathBuf]) {
    let _ = RULE.set(Rule { force, inputs: inputs.to_vec() });
}

/// Checks that `path` may be written: refused (exit 2) when a file is there and `--force` was
/// not given, unless `update` (the command appends to it or edits it in place), and when it
/// is one of the inputs, unless `update`. For each file of a multi-file output too.
pub fn permit(path: &Path, update: bool) -> Result<(), CliError> {
    let rule = RULE.get_or_init(Rule::default);
    check_output(path, Overwrite { force: rule.force, update }, &rule.inputs).map_err(|refusal| match refusal {
        Refusal::Io { .. } => CliError::Output(refusal.to_string()),
        _ => CliError::Usage(refusal.to_string()),
    })
}

/// Where a command writes: standard output for `-`, else a file written atomically (a device
/// or FIFO directly), compressed when its extension names a compression.
pub enum Output {
    /// `-`.
    Stdout(io::BufWriter<io::Stdout>),
    /// A file, device or FIFO.
    File(AtomicFile),
    /// A file, device or FIFO written compressed (boxed: the encoders' state is large).
    Compressed(Box<Encoder<AtomicFile>>),
}

impl Output {
    /// Starts writing `path` after [`permit`] allows it.
    pub fn create(path: &Path) -> Result<Output, CliError> {
        if path.as_os_str() == "-" {
            return Ok(Output::Stdout(io::BufWriter::with_capacity(1 << 16, io::stdout())));
        }
        let name = path.file_name().map(|n| n.to_string_lossy()).unwrap_or_default();
        let compression = strip_compression_extension(&name).1;
        if compression == Some(Compression::Zip) {
            return Err(CliError::Usage(format!(
                "{}: tabiya does not write zip archives (write the file, then zip it)",
                path.display()
            )));
        }
        permit(path, false)?;
        let file = AtomicFile::create(path).map_err(|e| CliError::output(path, e))?;
        match compression {
            Some(compression) => compression
                .encoder(file)
                .map(|e| Output::Compressed(Box::new(e)))
                .map_err(|e| CliError::output(path, e)),
            None => Ok(Output::File(file)),
        }
    }

    /// Refuses (exit 2) `-` as the output of a format of several files, which cannot go to
    /// standard output.
    pub fn require_file(path: &Path, format_name: &str) -> Result<(), CliError> {
        if path.as_os_str() == "-" {
            return Err(CliError::Usage(format!(
                "{format_name} is several files: it cannot be written to standard output"
            )));
        }
        Ok(())
    }

    /// Flushes and, for a file, ends its compression and renames it into place.
    pub fn finish(self, path: &Path) -> Result<(), CliError> {
        let output_error = |e| CliError::output(path, e);
        match self {
            Output::Stdout(mut w) => w.flush().map_err(output_error),
            Output::File(f) => f.commit().map_err(output_error),
            Output::Compressed(e) => (*e).finish().and_then(AtomicFile::commit).map_err(output_error),
        }
    }
}

impl Write for Output {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self {
            Output::Stdout(w) => w.write(buf),
            Output::File(f) => f.write(buf),
            Output::Compressed(e) => e.write(buf),
        }
    }

    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        match self {
            Output::Stdout(w) => w.write_all(buf),
            Output::File(f) => f.write_all(buf),
            Output::Compressed(e) => e.write_all(buf),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match self {
            Output::Stdout(w) => w.flush(),
            Output::File(f) => f.flush(),
            Output::Compressed(e) => e.flush(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_multi_file_format_refuses_standard_output() {
        let refused = Output::require_file(Path::new("-"), "SCID 4");
        assert!(matches!(refused, Err(CliError::Usage(m)) if m.starts_with("SCID 4 is several files")));
        assert!(Output::require_file(Path::new("games.si4"), "SCID 4").is_ok());
    }
}
