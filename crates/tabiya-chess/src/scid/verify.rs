//! Integrity check of a whole database: every game decodes and replays, derived fields agree
//! with the moves, name IDs are in range, no record crosses a 128 KiB block, and what the
//! reader tolerated (real-file quirks) is listed as warnings.

use std::path::Path;

use tabiya_io::report::Verification;
use tabiya_io::{Diagnostic, Location, Severity, Unit};

use super::database::Database;
use super::derived::{counts, main_line};
use super::encode::MAX_RECORD;
use super::fields::{encode_count, start_flags};
use super::index::IndexEntry;
use super::names::NameType;
use super::report::format_of;
use super::{Record, Version, codes};

/// What was found, in order.
#[derive(Default)]
struct Found(Vec<Diagnostic>);

impl Found {
    fn push(&mut self, severity: Severity, code: &'static str, location: Location, message: impl Into<String>) {
        self.0.push(Diagnostic { severity, code, location, message: message.into() });
    }
}

/// Checks every game of `db` (opened from `path`): it decodes and replays, its derived index
/// fields agree with its moves, its name IDs are in range, its record crosses no 128 KiB block;
/// what the reader forgave (real-file quirks) is listed as warnings. Counts `games`, `decoded`,
/// `plies` and `names`.
pub fn verify(db: &Database, path: &Path) -> Verification {
    let mut v = Found::default();
    let (mut decoded, mut plies) = (0u64, 0u64);
    v.0.extend(db.diagnostics.iter().cloned());
    let mut covered = 0u64;
    for (n, entry) in db.entries.iter().enumerate() {
        let at = Location::default().in_file(&db.paths.index).with(Unit::Game, n as u64 + 1);
        check_names(db, entry, &at, &mut v);
        if entry.result() > 3 {
            let message = format!("result code {} (expected 0–3)", entry.result());
            v.push(Severity::Error, codes::RESULT_CODE, at.clone(), message);
        }
        if db.version == Version::Scid5 && (entry.white_rating_type() == 7 || entry.black_rating_type() == 7) {
            let message = "rating type 7 does not exist (file of a SCID 5.0.0/5.0.2 release?)";
            v.push(Severity::Warning, codes::RATING_TYPE, at.clone(), message);
        }
        let start_block = entry.offset() / MAX_RECORD as u64;
        let end_block = (entry.offset() + u64::from(entry.length()).max(1) - 1) / MAX_RECORD as u64;
        if start_block != end_block {
            let message = format!("record at {:#x} crosses a 128 KiB boundary", entry.offset());
            v.push(Severity::Error, codes::RECORD_BLOCK, at.clone(), message);
        }
        covered += u64::from(entry.length());
        let mut found = Vec::new();
        match db.record(n, &mut found) {
            Ok(record) => {
                decoded += 1;
                plies += record.moves.nodes.len() as u64;
                check_derived(entry, &record, &at, &mut v);
            }
            Err(e) => v.0.push(e.diagnostic()),
        }
        v.0.extend(found);
    }
    check_frequencies(db, &mut v);
    let size = db.game_file().len() as u64;
    if covered < size {
        v.push(
            Severity::Warning,
            codes::UNREFERENCED_BYTES,
            Location::default().in_file(&db.paths.games),
            format!(
                "{} of {size} bytes are not referenced by any game (deleted or replaced games, padding)",
                size - covered
            ),
        );
    }
    let mut verification = Verification::new(path, format_of(db.version).name());
    verification.checked("games", db.len() as u64).checked("decoded", decoded).checked("plies", plies);
    verification.checked("names", NameType::ALL.iter().map(|&k| db.names.len(k) as u64).sum::<u64>());
    verification.problems(v.0);
    verification
}

/// .sn4 frequencies are obsolete (SCID rewrites them on every flush) but should count the games
/// using each name; differences and unused names are warnings.
fn check_frequencies(db: &Database, v: &mut Found) {
    let mut used: [Vec<u32>; 4] = NameType::ALL.map(|k| vec![0; db.names.len(k)]);
    for e in &db.entries {
        for (kind, id) in [
            (NameType::Player, e.white),
            (NameType::Player, e.black),
            (NameType::Event, e.event),
            (NameType::Site, e.site),
            (NameType::Round, e.round),
        ] {
            if let Some(n) = used[kind as usize].get_mut(id as usize) {
                *n += 1;
            }
        }
    }
    for kind in NameType::ALL {
        let stored = db.names.stored_frequency(kind);
        if stored.is_empty() {
            continue;
        }
        let counts = &used[kind as usize];
        let differ = stored.iter().zip(counts).filter(|(s, c)| s != c).count();
        let unused = counts.iter().filter(|&&c| c == 0).count();
        let at = Location::default().in_file(&db.paths.names);
        if differ > 0 {
            v.push(
                Severity::Warning,
                codes::NAME_FREQUENCY,
                at.clone(),
                format!("{differ} {} have a stored frequency that differs from the games using them", kind.label()),
            );
        }
        if unused > 0 {
            let message = format!("{unused} {} are used by no game", kind.label());
            v.push(Severity::Warning, codes::UNUSED_NAMES, at, message);
        }
    }
}

fn check_names(db: &Database, e: &IndexEntry, at: &Location, v: &mut Found) {
    for (kind, id, what) in [
        (NameType::Player, e.white, "White"),
        (NameType::Player, e.black, "Black"),
        (NameType::Event, e.event, "Event"),
        (NameType::Site, e.site, "Site"),
        (NameType::Round, e.round, "Round"),
    ] {
        if id as usize >= db.names.len(kind) {
            v.push(
                Severity::Error,
                codes::NAME_ID,
                at.clone(),
                format!("{what} name ID {id} is out of range ({} {})", db.names.len(kind), kind.label()),
            );
        }
    }
}

/// Derived fields recomputed from the moves; in FEN games old Scid vs PC wrote stale values,
/// which are warnings there.
fn check_derived(e: &IndexEntry, record: &Record, at: &Location, v: &mut Found) {
    let fen_game = record.start.is_some();
    let start = match &record.start {
        Some(fen) => match super::decode::start_position(
            fen,
            if e.chess960() { shakmaty::CastlingMode::Chess960 } else { shakmaty::CastlingMode::Standard },
        ) {
            Ok(p) => p,
            Err(_) => return,
        },
        None => shakmaty::Chess::default(),
    };
    let info = main_line(&start, fen_game, &record.moves.nodes);
    let c = counts(&record.moves);
    let stored_flags = e.flags & 7;
    let mut stale = Vec::new();
    let plies = info.plies.min(1023);
    if plies != usize::from(e.plies) {
        stale.push(format!("ply count {} (moves give {plies})", e.plies));
    }
    if info.material != e.material {
        stale.push(format!("final material {:#08x} (moves give {:#08x})", e.material, info.material));
    }
    if info.stored_line != e.stored_line {
        stale.push(format!("stored line {} (moves give {})", e.stored_line, info.stored_line));
    }
    if (info.home_pawn_count, info.home_pawns) != (e.home_pawn_count, e.home_pawns) {
        stale.push("home-pawn data".to_owned());
    }
    let expected_flags = start_flags(fen_game, info.promotion, info.underpromotion);
    if stored_flags != expected_flags {
        stale.push(format!("S/X/Y flags {stored_flags:#b} (moves give {expected_flags:#b})"));
    }
    if u32::from(record.start_flags & 7) != expected_flags {
        stale.push(format!("start-board byte {:#04x}", record.start_flags));
    }
    for (name, stored, actual) in [
        ("variation count", e.variation_code(), c.variations),
        ("comment count", e.comment_code(), c.comments),
        ("NAG count", e.nag_code(), c.nags),
    ] {
        if encode_count(actual) != stored {
            stale.push(format!("{name} code {stored} (game has {actual})"));
        }
    }
    if info.plies > 1023 {
        let message = format!("{} plies: SCID stores only 10 bits", info.plies);
        v.push(Severity::Warning, codes::PLY_COUNT, at.clone(), message);
    }
    if stale.is_empty() {
        return;
    }
    let (severity, kind) = if fen_game {
        (Severity::Warning, "stale derived field")
    } else {
        (Severity::Error, "derived field disagrees")
    };
    v.push(severity, codes::DERIVED_FIELD, at.clone(), format!("{kind}: {}", stale.join(", ")));
}
