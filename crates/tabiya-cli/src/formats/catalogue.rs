//! `tabiya formats`: every format with its names, extensions, family and what each command
//! does with it. Built from the registry and from the predicates the dispatch itself uses
//! ([`conversion`], [`builds`], [`info_depth`], [`verifies`], [`probes`]), so it cannot
//! drift from what the commands accept.

use std::io::{self, Write};
use std::path::Path;
use std::process::ExitCode;

use serde::Serialize;

use super::{Format, InfoDepth, all_formats, builds, conversion, info_depth, probes, verifies};
use crate::registry::Family;
use crate::report::CliError;

/// What tabiya does with one format.
#[derive(Debug, Serialize)]
pub struct Entry {
    /// The name for `--from`/`--to`.
    pub name: &'static str,
    /// `chess`, `othello`, `shogi`, or `table` (Parquet).
    pub family: &'static str,
    /// The extensions, which `--from`/`--to` also take; the usual one first.
    pub extensions: &'static [&'static str],
    /// What `info` reads: `contents`, or `size` for a format without a reader yet.
    pub info: &'static str,
    /// True when `verify` checks it.
    pub verify: bool,
    /// True when `probe` looks positions up in it.
    pub probe: bool,
    /// The formats `convert` writes from it.
    pub convert_to: Vec<String>,
    /// The formats `convert` reads into it.
    pub convert_from: Vec<String>,
    /// The book formats `book` builds from it.
    pub book_to: Vec<String>,
    /// The formats `book` builds it from.
    pub book_from: Vec<String>,
}

fn family_name(family: Family) -> &'static str {
    match family {
        Family::Chess => "chess",
        Family::Othello => "othello",
        Family::Shogi => "shogi",
        Family::Table => "table",
    }
}

/// `other`'s name as seen from `format`: bare in the same family, else with its family.
fn label(format: Format, other: Format) -> String {
    if format.family() == other.family() {
        other.name().to_owned()
    } else {
        format!("{}:{}", family_name(other.family()), other.name())
    }
}

/// The formats `holds` is true of, named as seen from `format`.
fn related(format: Format, holds: impl Fn(Format) -> bool) -> Vec<String> {
    all_formats().filter(|&other| holds(other)).map(|other| label(format, other)).collect()
}

/// Every format, in the registry's order.
pub fn catalogue() -> Vec<Entry> {
    all_formats()
        .map(|format| Entry {
            name: format.name(),
            family: family_name(format.family()),
            extensions: format.extensions(),
            info: match info_depth(format) {
                InfoDepth::Contents => "contents",
                InfoDepth::Size => "size",
            },
            verify: verifies(format),
            probe: probes(format),
            convert_to: related(format, |to| conversion(format, to).is_some()),
            convert_from: related(format, |from| conversion(from, format).is_some()),
            book_to: related(format, |to| builds(format, to)),
            book_from: related(format, |from| builds(from, format)),
        })
        .collect()
}

/// Every name `--from`/`--to` take, for a message about a name that is none of them.
pub fn known_names() -> String {
    let mut names: Vec<&str> = all_formats().map(Format::name).collect();
    names.sort_unstable();
    names.dedup();
    names.join(", ")
}

fn write_text(entries: &[Entry], out: &mut impl Write) -> io::Result<()> {
    let list = |names: &[String]| if names.is_empty() { "-".to_owned() } else { names.join(", ") };
    for e in entries {
        let extensions: Vec<String> = e.extensions.iter().map(|x| format!(".{x}")).collect();
        writeln!(out, "{} ({}) {}", e.name, e.family, extensions.join(" "))?;
        let yes_no = |b: bool| if b { "yes" } else { "no" };
        writeln!(out, "  info: {}; verify: {}; probe: {}", e.info, yes_no(e.verify), yes_no(e.probe))?;
        writeln!(out, "  convert to: {}", list(&e.convert_to))?;
        writeln!(out, "  convert from: {}", list(&e.convert_from))?;
        if !e.book_to.is_empty() {
            writeln!(out, "  book to: {}", list(&e.book_to))?;
        }
        if !e.book_from.is_empty() {
            writeln!(out, "  book from: {}", list(&e.book_from))?;
        }
    }
    Ok(())
}

/// `tabiya formats [--json]`: the catalogue on standard output (JSON: one array).
pub fn print(json: bool) -> Result<ExitCode, CliError> {
    let entries = catalogue();
    let mut out = io::stdout().lock();
    let written = if json {
        serde_json::to_writer_pretty(&mut out, &entries).map_err(io::Error::from).and_then(|()| writeln!(out))
    } else {
        write_text(&entries, &mut out)
    };
    written.and_then(|()| out.flush()).map_err(|e| CliError::output(Path::new("-"), e))?;
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The catalogue says what the dispatch does: every pair it lists converts, every pair it
    /// leaves out is refused, both ways round.
    #[test]
    fn convert_pairs_agree_with_the_dispatch() {
        let entries = catalogue();
        for (from, entry) in all_formats().zip(&entries) {
            for to in all_formats() {
                let listed = entry.convert_to.contains(&label(from, to));
                assert_eq!(listed, conversion(from, to).is_some(), "{from} → {to}");
                let to_entry = entries.iter().zip(all_formats()).find(|(_, f)| *f == to).unwrap().0;
                assert_eq!(to_entry.convert_from.contains(&label(to, from)), listed, "{from} → {to}, listed at {to}");
            }
        }
    }

    /// Facts from the README's format table, an outside account of what tabiya does.
    #[test]
    fn known_facts() {
        let entries = catalogue();
        let find = |family: &str, name: &str| entries.iter().find(|e| e.family == family && e.name == name).unwrap();
        let pgn = find("chess", "pgn");
        assert!(pgn.convert_to.contains(&"scid4".to_owned()));
        assert_eq!(pgn.book_to, ["polyglot", "kvetka"]);
        assert!(!pgn.probe);
        let ctg = find("chess", "ctg");
        assert!(ctg.probe && ctg.convert_from.is_empty());
        assert_eq!(find("chess", "polyglot").book_from, ["pgn", "scid3", "scid4", "scid5", "jsonl"]);
        assert!(find("othello", "wthor_games").convert_to.contains(&"wthor_solitaires".to_owned()));
        assert!(!find("othello", "wthor_games").convert_to.contains(&"chess:pgn".to_owned()));
    }
}
