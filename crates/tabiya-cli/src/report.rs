//! What commands print, the exit statuses of design.md, outputs and progress bars.

use std::fmt;
use std::io::{self, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use indicatif::{ProgressBar, ProgressStyle};
use serde::Serialize;
use serde_json::{Map, Value};

use crate::registry::Format;

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

/// `tabiya info`: `{"path", "format", "version", "counts", "header"}`.
#[derive(Debug, Serialize)]
pub struct InfoReport {
    pub path: PathBuf,
    pub format: &'static str,
    pub version: Value,
    pub counts: Map<String, Value>,
    pub header: Map<String, Value>,
}

impl InfoReport {
    pub fn new(path: &Path, format: Format) -> InfoReport {
        InfoReport {
            path: path.to_path_buf(),
            format: format.name(),
            version: Value::Null,
            counts: Map::new(),
            header: Map::new(),
        }
    }

    pub fn count(&mut self, name: &str, value: impl Into<Value>) -> &mut Self {
        self.counts.insert(name.to_owned(), value.into());
        self
    }

    pub fn header(&mut self, name: &str, value: impl Into<Value>) -> &mut Self {
        self.header.insert(name.to_owned(), value.into());
        self
    }

    pub fn print(&self, json: bool) -> io::Result<()> {
        let mut out = io::stdout().lock();
        if json {
            return print_json(&mut out, self);
        }
        writeln!(out, "path: {}", self.path.display())?;
        writeln!(out, "format: {}", self.format)?;
        if !self.version.is_null() {
            writeln!(out, "version: {}", plain(&self.version))?;
        }
        for (title, map) in [("counts", &self.counts), ("header", &self.header)] {
            if !map.is_empty() {
                writeln!(out, "{title}:")?;
                for (k, v) in map {
                    writeln!(out, "  {k}: {}", plain(v))?;
                }
            }
        }
        Ok(())
    }
}

pub use tabiya_io::Severity;

/// One finding of `tabiya verify`.
#[derive(Debug, Serialize)]
pub struct Problem {
    pub severity: Severity,
    /// `file@offset` or `record N`.
    #[serde(rename = "where")]
    pub location: String,
    pub what: String,
}

/// `tabiya verify`: `{"path", "format", "ok", "checked", "problems"}`. `ok` is false when any
/// problem is an error; the exit status is then 1.
#[derive(Debug, Serialize)]
pub struct VerifyReport {
    pub path: PathBuf,
    pub format: &'static str,
    pub ok: bool,
    pub checked: Map<String, Value>,
    pub problems: Vec<Problem>,
}

impl VerifyReport {
    pub fn new(path: &Path, format: Format) -> VerifyReport {
        VerifyReport {
            path: path.to_path_buf(),
            format: format.name(),
            ok: true,
            checked: Map::new(),
            problems: Vec::new(),
        }
    }

    pub fn checked(&mut self, name: &str, value: impl Into<Value>) -> &mut Self {
        self.checked.insert(name.to_owned(), value.into());
        self
    }

    pub fn problem(&mut self, severity: Severity, location: impl fmt::Display, what: impl Into<String>) {
        if severity == Severity::Error {
            self.ok = false;
        }
        self.problems.push(Problem { severity, location: location.to_string(), what: what.into() });
    }

    pub fn print(&self, json: bool) -> io::Result<()> {
        let mut out = io::stdout().lock();
        if json {
            return print_json(&mut out, self);
        }
        for p in &self.problems {
            let sev = match p.severity {
                Severity::Error => "error",
                Severity::Warning => "warning",
            };
            writeln!(out, "{sev}: {}: {}", p.location, p.what)?;
        }
        let checked: Vec<String> = self.checked.iter().map(|(k, v)| format!("{k} {}", plain(v))).collect();
        writeln!(
            out,
            "{}: {} ({}): {}",
            self.path.display(),
            self.format,
            checked.join(", "),
            if self.ok { "ok" } else { "PROBLEMS FOUND" }
        )
    }

    pub fn exit_code(&self) -> ExitCode {
        if self.ok { ExitCode::SUCCESS } else { ExitCode::from(1) }
    }
}

fn print_json(out: &mut impl Write, value: &impl Serialize) -> io::Result<()> {
    serde_json::to_writer(&mut *out, value)?;
    writeln!(out)
}

fn plain(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
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
