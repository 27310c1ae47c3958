//! Integrity check of a whole database: every game decodes and replays, derived fields agree
//! with the moves, name IDs are in range, no record crosses a 128 KiB block, and what the
//! reader tolerated (real-file quirks) is listed as warnings.

use tabiya_io::{Finding, Location, Severity, Warnings};

use super::database::Database;
use super::derived::{counts, main_line};
use super::encode::MAX_RECORD;
use super::fields::{encode_count, start_flags};
use super::index::IndexEntry;
use super::names::NameType;
use super::{Record, Version};

/// What was checked and what was found.
#[derive(Debug, Clone, Default)]
pub struct Verification {
    pub games: u64,
    pub decoded: u64,
    pub plies: u64,
    pub names: u64,
    pub problems: Vec<Finding>,
}

impl Verification {
    pub fn errors(&self) -> usize {
        self.problems.iter().filter(|p| p.severity == Severity::Error).count()
    }

    fn push(&mut self, severity: Severity, location: Location, what: impl Into<String>) {
        self.problems.push(Finding { severity, location, what: what.into() });
    }
}

/// Checks every game of `db`.
pub fn verify(db: &Database) -> Verification {
    let mut v = Verification { games: db.len() as u64, ..Verification::default() };
    v.names = NameType::ALL.iter().map(|&k| db.names.len(k) as u64).sum();
    for w in db.warnings.iter() {
        v.push(Severity::Warning, w.location.clone(), w.message.clone());
    }
    let mut covered = 0u64;
    for (n, entry) in db.entries.iter().enumerate() {
        let at = Location::default().in_file(&db.paths.index).with_record(n as u64 + 1);
        check_names(db, entry, &at, &mut v);
        if entry.result() > 3 {
            v.push(Severity::Error, at.clone(), format!("result code {} (expected 0–3)", entry.result()));
        }
        if db.version == Version::Scid5 && (entry.white_rating_type() == 7 || entry.black_rating_type() == 7) {
            v.push(Severity::Warning, at.clone(), "rating type 7 does not exist (file of a SCID 5.0.0/5.0.2 release?)");
        }
        let start_block = entry.offset() / MAX_RECORD as u64;
        let end_block = (entry.offset() + u64::from(entry.length()).max(1) - 1) / MAX_RECORD as u64;
        if start_block != end_block {
            v.push(Severity::Error, at.clone(), format!("record at {:#x} crosses a 128 KiB boundary", entry.offset()));
        }
        covered += u64::from(entry.length());
        let mut warnings = Warnings::default();
        match db.record(n, &mut warnings) {
            Ok(record) => {
                v.decoded += 1;
                v.plies += record.moves.nodes.len() as u64;
                check_derived(entry, &record, &at, &mut v);
            }
            Err(e) => v.push(Severity::Error, at.clone(), e.to_string()),
        }
        for w in warnings.0 {
            v.push(Severity::Warning, w.location, w.message);
        }
    }
    check_frequencies(db, &mut v);
    let size = db.game_file().len() as u64;
    if covered < size {
        v.push(
            Severity::Warning,
            Location::default().in_file(&db.paths.games),
            format!(
                "{} of {size} bytes are not referenced by any game (deleted or replaced games, padding)",
                size - covered
            ),
        );
    }
    v
}

/// .sn4 frequencies are obsolete (SCID rewrites them on every flush) but should count the games
/// using each name; differences and unused names are warnings.
fn check_frequencies(db: &Database, v: &mut Verification) {
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
                at.clone(),
                format!("{differ} {} have a stored frequency that differs from the games using them", kind.label()),
            );
        }
        if unused > 0 {
            v.push(Severity::Warning, at, format!("{unused} {} are used by no game", kind.label()));
        }
    }
}

fn check_names(db: &Database, e: &IndexEntry, at: &Location, v: &mut Verification) {
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
                at.clone(),
                format!("{what} name ID {id} is out of range ({} {})", db.names.len(kind), kind.label()),
            );
        }
    }
}

/// Derived fields recomputed from the moves; in FEN games old Scid vs PC wrote stale values,
/// which are warnings there.
fn check_derived(e: &IndexEntry, record: &Record, at: &Location, v: &mut Verification) {
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
        v.push(Severity::Warning, at.clone(), format!("{} plies: SCID stores only 10 bits", info.plies));
    }
    if stale.is_empty() {
        return;
    }
    let (severity, kind) = if fen_game {
        (Severity::Warning, "stale derived field")
    } else {
        (Severity::Error, "derived field disagrees")
    };
    v.push(severity, at.clone(), format!("{kind}: {}", stale.join(", ")));
}
