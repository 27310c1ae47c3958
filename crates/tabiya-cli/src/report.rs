//! What commands print, the exit statuses of design.md, outputs and progress bars.

use std::fmt;
use std::io::{self, IsTerminal, Write};
use std::path::Path;
use std::process::ExitCode;
use std::sync::atomic::{AtomicU64, Ordering};

use indicatif::{HumanBytes, HumanCount, HumanDuration, ProgressBar, ProgressState, ProgressStyle};
use tabiya_io::Severity;
use tabiya_io::report::{Info, Report, Verification};

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

/// Prints what `info` found; exit status 1 when reading met an error (a game, record or
/// part that could not be read), so that a script tells a damaged file from a clean one.
pub fn print_info(info: &Info, json: bool) -> Result<ExitCode, CliError> {
    print(info, json)?;
    let lost = info.problems.iter().any(|problem| problem.severity == Severity::Error);
    Ok(if lost { ExitCode::from(1) } else { ExitCode::SUCCESS })
}

/// `verify`'s exit status: 1 when an error was found.
pub fn verdict(verification: &Verification) -> ExitCode {
    if verification.ok { ExitCode::SUCCESS } else { ExitCode::from(1) }
}

pub use crate::output::Output;

/// What a progress bar counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unit {
    /// Bytes of the input, shown as KiB, MiB, GiB.
    Bytes,
    /// Records (games, positions, entries), shown as numbers.
    Records,
}

/// A progress bar on stderr, shown only on a terminal and never with `--quiet`: the count
/// with its total, percentage, rate and time left (`12.5 MiB/180 MiB 7% 9.8 MiB/s ETA 17s`).
/// `len` is the total; 0 when not known yet (set it later with `set_length`): until then
/// the bar shows the count and the rate.
pub fn progress(unit: Unit, len: u64, quiet: bool, what: &str) -> ProgressBar {
    if quiet || !io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = if len == 0 { ProgressBar::new_spinner() } else { ProgressBar::new(len) };
    count_in(&bar, unit);
    bar.set_message(what.to_owned());
    bar.enable_steady_tick(std::time::Duration::from_millis(200));
    bar
}

/// Makes `bar` count in `unit` from now on.
fn count_in(bar: &ProgressBar, unit: Unit) {
    let counter = move |state: &ProgressState, out: &mut dyn fmt::Write| {
        let text = progress_text(unit, state.pos(), state.len().filter(|&n| n > 0), state.per_sec(), state.eta());
        let _ = out.write_str(&text);
    };
    if let Ok(style) = ProgressStyle::with_template("{spinner} {msg} {counter}") {
        bar.set_style(style.with_key("counter", counter));
    }
}

/// Makes `bar` count bytes of a total of `len` from now on.
pub fn show_bytes(bar: &ProgressBar, len: u64) {
    count_in(bar, Unit::Bytes);
    bar.set_length(len);
    bar.set_position(0);
}

/// A bar that counts games while `source` is read, or, for PGN, the bytes of its file read of
/// its size (compressed bytes of a compressed file): what [`SourceProgress::update`] shows.
pub struct SourceProgress<'b> {
    bar: &'b ProgressBar,
    in_bytes: bool,
    /// The bar draws nothing (`-q`, not a terminal): updating it anyway read the clock for every
    /// game (5 % of `select`'s CPU).
    hidden: bool,
    /// The bytes done last shown: they move once per block of games read, not game by game.
    shown: AtomicU64,
}

impl<'b> SourceProgress<'b> {
    /// Starts showing the reading of `source` on `bar`.
    pub fn new(bar: &'b ProgressBar, source: &tabiya_chess::games::Source) -> SourceProgress<'b> {
        let in_bytes = source.bytes_read().is_some();
        if in_bytes {
            show_bytes(bar, 0);
        }
        SourceProgress { bar, in_bytes, hidden: bar.is_hidden(), shown: AtomicU64::new(u64::MAX) }
    }

    /// `games` more games read from `source`.
    pub fn update(&self, source: &tabiya_chess::games::Source, games: u64) {
        if self.hidden {
            return;
        }
        match source.bytes_read().filter(|_| self.in_bytes) {
            Some((done, total)) => {
                if self.shown.swap(done, Ordering::Relaxed) != done {
                    self.bar.set_length(total);
                    self.bar.set_position(done);
                }
            }
            None => self.bar.inc(games),
        }
    }
}

/// The text after a progress bar's message: count, total, percentage, rate and time left.
fn progress_text(unit: Unit, done: u64, total: Option<u64>, per_sec: f64, eta: std::time::Duration) -> String {
    let amount = |n: u64| match unit {
        Unit::Bytes => HumanBytes(n).to_string(),
        Unit::Records => HumanCount(n).to_string(),
    };
    let rate = format!("{}/s", amount(per_sec.max(0.0) as u64));
    match total {
        Some(total) => {
            let percent = done.min(total) * 100 / total;
            format!("{}/{} {percent}% {rate} ETA {}", amount(done), amount(total), HumanDuration(eta))
        }
        None => format!("{} {rate}", amount(done)),
    }
}

/// `n` and its noun, singular for one: `counted(1, "warning")` is "1 warning",
/// `counted(2, "entry")` "2 entries".
pub fn counted(n: impl Into<u64>, noun: &str) -> String {
    let n = n.into();
    match (n, noun.strip_suffix('y')) {
        (1, _) => format!("1 {noun}"),
        (_, Some(stem)) => format!("{n} {stem}ies"),
        _ => format!("{n} {noun}s"),
    }
}

/// Prints a summary line on stderr unless `--quiet`.
pub fn summary(quiet: bool, text: impl fmt::Display) {
    if !quiet {
        eprintln!("{text}");
    }
}

/// Runs `build`, which walks `len` bytes of PGN, showing on `bar` how far the walk has come.
///
/// The bar is updated every 100 ms by a thread of its own, which the end of `build` wakes at
/// once: a thread that slept its 100 ms out made the command wait up to that long after its
/// work was done (a third of a book build of the medium file). A hidden bar has no thread.
pub fn walking<T: Send>(bar: &ProgressBar, len: usize, build: impl FnOnce() -> T + Send) -> T {
    if bar.is_hidden() {
        return build();
    }
    let start = tabiya_chess::pgn::walked_bytes();
    show_bytes(bar, len as u64);
    let (built_tx, built_rx) = std::sync::mpsc::channel::<()>();
    std::thread::scope(|scope| {
        scope.spawn(move || {
            // Woken by the sender's drop when `build` ends (or unwinds).
            while let Err(std::sync::mpsc::RecvTimeoutError::Timeout) =
                built_rx.recv_timeout(std::time::Duration::from_millis(100))
            {
                bar.set_position(tabiya_chess::pgn::walked_bytes() - start);
            }
        });
        let _wake_on_drop = built_tx;
        build()
    })
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    #[test]
    fn progress_shows_count_total_percentage_rate_and_time_left() {
        let text =
            progress_text(Unit::Bytes, 13 << 20, Some(180 << 20), 10.0 * 1024.0 * 1024.0, Duration::from_secs(17));
        assert_eq!(text, "13.00 MiB/180.00 MiB 7% 10.00 MiB/s ETA 17 seconds");
        assert_eq!(progress_text(Unit::Records, 1500, None, 250.0, Duration::ZERO), "1,500 250/s");
        assert_eq!(
            progress_text(Unit::Records, 146, Some(5575), 3.0, Duration::from_secs(1800)),
            "146/5,575 2% 3/s ETA 30 minutes"
        );
    }

    #[test]
    fn counts_in_the_singular_and_the_plural() {
        assert_eq!(counted(1u64, "problem"), "1 problem");
        assert_eq!(counted(0u64, "warning"), "0 warnings");
        assert_eq!(counted(2u64, "entry"), "2 entries");
    }
}
