//! SCID databases (.si3/.si4/.si5): conversion to and from every chess games format, and the
//! options of writing SCID. Info, verify and the conversion itself are pgn.rs's, for the whole
//! games family (the library's `games` layer).

use crate::registry::Format;
use tabiya_chess::Format as C;

use std::path::Path;

use crate::output::{self, Output};
use crate::report::CliError;
use tabiya_chess::scid::{DatabasePaths, Version};

/// How games are added to a SCID database.
#[derive(Debug, Default, clap::Args)]
#[group(skip)]
pub struct ConvertOptions {
    /// → SCID: add the games to the existing database instead of replacing it.
    #[arg(long)]
    pub append: bool,
}

fn is_scid(format: Format) -> bool {
    matches!(format, Format::Chess(C::Scid3 | C::Scid4 | C::Scid5))
}

/// Every conversion with a SCID database on either side.
pub fn converts(from: Format, to: Format) -> Option<super::Conversion> {
    let games = super::pgn::holds_games;
    ((is_scid(from) || is_scid(to)) && games(from) && games(to)).then(|| -> super::Conversion {
        Box::new(move |args, global| super::pgn::convert_games(args, global, from, to))
    })
}

/// Refuses `-` (a database is three files) and an existing file of the database unless
/// `--force` or `--append` allows it.
pub fn permit_outputs(output: &Path, append: bool, version: Version) -> Result<(), CliError> {
    Output::require_file(output, "SCID")?;
    let paths = DatabasePaths::with_version(output, version);
    [&paths.index, &paths.games, &paths.names].into_iter().try_for_each(|p| output::permit(p, append))
}

/// The options SCID takes: `--append` when SCID 4 or 5 is written.
pub fn takes(part: super::Part) -> &'static [&'static str] {
    use super::Role;
    match (part.role, part.format, part.other) {
        (Role::Write, Format::Chess(C::Scid4 | C::Scid5), Some(from)) if super::pgn::holds_games(from) => {
            &["append", "add_eco"]
        }
        _ => &[],
    }
}
