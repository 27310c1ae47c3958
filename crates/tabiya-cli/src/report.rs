//! What commands print, the exit statuses of design.md, outputs and progress bars.

use std::fmt;
use std::io::{self, IsTerminal, Write};
use std::path::Path;
use std::process::ExitCode;

use indicatif::{ProgressBar, ProgressStyle};
use tabiya_io::report::{Report, Verification};

/// A failed command, with the exit status design.md gives it.
#[derive(Debug)]
pub enum CliError {
    /// 2: the command line asks for something that cannot be done.
    Usage(String),
    /// 3: an input could not be read or is invalid.
    Input(String),
    /// 4: an output could not be written.
    Output(String),
}

impl CliError {
    pub fn exit_code(&self) -> ExitCode {
        ExitCode::from(match self {
            CliError::Usage(_) => 2,
            CliError::Input(_) => 3,
            CliError::Output(_) => 4,
        })
    }

    pub fn input(e: impl fmt::Display) -> CliError {
        CliError::Input(e.to_string())
    }

    pub fn output(path: &Path, e: impl fmt::Display) -> CliError {
        CliError::Output(format!("{}: {e}", path.display()))
    }

    pub fn unsupported(what: impl fmt::Display) -> CliError {
        CliError::Usage(format!("{what} is not supported yet"))
    }
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CliError::Usage(m) | CliError::Input(m) | CliError::Output(m) => f.write_str(m),
        }
    }
}

/// Prints a report on standard output: one JSON object with `--json`, else text.
pub fn print(report: &impl Report, json: bool) -> Result<(), CliError> {
    let mut out = io::stdout().lock();
    let written = if json { report.write_json(&mut out) } else { report.write_text(&mut out) };
    written.and_then(|()| out.flush()).map_err(|e| CliError::output(Path::new("-"), e))
}

/// `verify`'s exit status: 1 when an error was found.
pub fn verdict(verification: &Verification) -> ExitCode {
    if verification.ok { ExitCode::SUCCESS } else { ExitCode::from(1) }
}

pub use crate::output::Output;

/// A progress bar on stderr, shown only on a terminal and never with `--quiet`.
/// `len` is the total (bytes or records); 0 gives a spinner.
pub fn progress(len: u64, quiet: bool, what: &str) -> ProgressBar {
    if quiet || !io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = if len == 0 { ProgressBar::new_spinner() } else { ProgressBar::new(len) };
    let template = if len == 0 { "{spinner} {msg} {pos}" } else { "{msg} [{bar:40}] {percent}% {eta}" };
    if let Ok(style) = ProgressStyle::with_template(template) {
        bar.set_style(style.progress_chars("=> "));
    }
    bar.set_message(what.to_owned());
    bar
}

/// Prints a summary line on stderr unless `--quiet`.
pub fn summary(quiet: bool, text: impl fmt::Display) {
    if !quiet {
        eprintln!("{text}");
    }
}
