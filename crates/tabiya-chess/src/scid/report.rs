//! `info` of a SCID database: counts of games, names and deleted games, header fields.

use std::path::Path;

use tabiya_io::report::Info;

use super::{Database, NameType, Version};
use crate::Format;

/// The chess format of a SCID version.
pub fn format_of(version: Version) -> Format {
    match version {
        Version::Scid3 => Format::Scid3,
        Version::Scid4 => Format::Scid4,
        Version::Scid5 => Format::Scid5,
    }
}

/// What database `db` (named `path`) holds. The auto-load game is explained for both readings
/// of it (SCID 5 counts from 1 with 0 for none; Scid vs PC and SCID ≤ 4.3 count from 0).
pub fn info(db: &Database, path: &Path) -> Info {
    let mut info = Info::new(path, format_of(db.version).name());
    info.version = db.version.number().into();
    info.count("games", db.len() as u64);
    for kind in NameType::ALL {
        info.count(kind.label(), db.names.len(kind) as u64);
    }
    info.count("deleted", db.deleted_count() as u64);
    info.header("description", String::from_utf8_lossy(&db.header.description).into_owned());
    info.header("base_type", db.header.base_type);
    let auto = db.header.auto_load;
    info.header("auto_load", auto);
    let scid5 = match auto {
        0 => "none".to_owned(),
        n => format!("game {n}"),
    };
    let older = match auto {
        0 | 1 => "first game".to_owned(),
        n => format!("game {}", n - 1),
    };
    info.header("auto_load_meaning", format!("SCID 5: {scid5}; Scid vs PC / SCID ≤ 4.3: {older}"));
    let flags: Vec<String> = db.header.flag_names.iter().map(|f| String::from_utf8_lossy(f).into_owned()).collect();
    info.header("custom_flags", flags);
    let dates = db.entries.iter().map(|e| e.date).filter(|d| d.0 != 0);
    if let (Some(min), Some(max)) = (dates.clone().min(), dates.max()) {
        info.header("first_date", min.to_pgn());
        info.header("last_date", max.to_pgn());
    }
    info.header("warnings", db.diagnostics.len() as u64);
    info
}
