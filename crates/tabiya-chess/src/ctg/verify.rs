//! Integrity checks (`tabiya verify book.ctg`): header, index, pages, keys, look-ups, moves.

use std::collections::HashMap;

use shakmaty::{Color, File, Position};

use std::path::Path;

use tabiya_io::report::Verification;
use tabiya_io::{Diagnostic, DiagnosticSink, Location, Unit};

use super::CtgError;
use super::key::{self, Key, hex};
use super::probe::{Resolved, resolve};
use super::read::Book;

/// A reading error as a diagnostic: where it happened (with the data page when inside one)
/// and what was expected there.
fn read_error(file: &Path, e: CtgError) -> Diagnostic {
    match e {
        CtgError::Data { error, page } => {
            let mut location = error.location.in_file(file);
            if let Some(page) = page {
                location = location.with(Unit::Page, u64::from(page));
            }
            let found = error.found.map(|f| format!(", found {f}")).unwrap_or_default();
            Diagnostic::error("ctg.read", location, format!("expected {}{found}", error.expected))
        }
        CtgError::Io { .. } => Diagnostic::error("ctg.read", Location::file(file), e.to_string()),
    }
}

#[derive(Default)]
struct Counts {
    pages: u64,
    stale_pages: u64,
    records: u64,
    moves: u64,
    ep_records: u64,
    castling_records: u64,
    found_exact: u64,
    found_legacy: u64,
}

/// Checks everything the notes say must hold: page headers against their records, every key
/// re-encoding to its own bytes and normalised, every record reachable through the exact and
/// the legacy look-up, every move legal, and the index files consistent with the pages.
pub fn verify(book: &Book) -> Verification {
    let ctg = &book.paths().ctg;
    let mut v = Verification::new(ctg, crate::Format::Ctg.name());
    let mut n = Counts::default();
    v.problems(book.warnings().iter().cloned());
    let header = *book.header();
    let mut first_seen: HashMap<Vec<u8>, u64> = HashMap::new();

    for page in book.pages() {
        let page = match page {
            Ok(page) => page,
            Err(e) => {
                v.problem(read_error(ctg, e));
                continue;
            }
        };
        n.pages += 1;
        n.stale_pages += u64::from(page.has_stale_tail());
        let mut in_page = 0u64;
        for record in page.records() {
            let record = match record {
                Ok(record) => record,
                Err(e) => {
                    v.problem(read_error(ctg, e));
                    break;
                }
            };
            in_page += 1;
            n.records += 1;
            n.moves += record.moves().len() as u64;
            let at = book.record_location(&record);
            if let Some(first) = first_seen.insert(record.key.to_vec(), record.offset) {
                v.error("ctg.duplicate_key", at.clone(), format!("the same key as the record at {first:#x}"));
            }
            let normalized = match key::decode(record.key) {
                Ok(normalized) => normalized,
                Err(expected) => {
                    v.error("ctg.key", at, format!("key {}: expected {expected}", hex(record.key)));
                    continue;
                }
            };
            n.ep_records += u64::from(normalized.ep_file.is_some());
            n.castling_records += u64::from(!normalized.castling.is_empty());
            match Key::encode(&normalized) {
                Some(again) if again.as_bytes() == record.key => {}
                _ => v.error(
                    "ctg.key",
                    at.clone(),
                    format!("key {} does not re-encode to the same bytes", hex(record.key)),
                ),
            }
            if normalized.castling.is_empty()
                && normalized.board.king_of(Color::White).is_some_and(|k| k.file() <= File::D)
            {
                v.error(
                    "ctg.not_normalized",
                    at.clone(),
                    "not normalised: nobody can castle but White's king is on files a-d",
                );
            }
            let key = Key::encode(&normalized);
            if book.tree().is_some()
                && let Some(key) = key
            {
                match book.find_exact(&key) {
                    Ok(Some(found)) if found.offset == record.offset => n.found_exact += 1,
                    Ok(_) => v.error("ctg.exact_lookup", at.clone(), "not found by the exact .ctb/.cto look-up"),
                    Err(e) => v.error("ctg.exact_lookup", at.clone(), format!("exact look-up failed: {e}")),
                }
                match book.find_legacy(&key) {
                    Ok(Some(found)) if found.offset == record.offset => n.found_legacy += 1,
                    Ok(_) => {
                        v.warning("ctg.legacy_lookup", at.clone(), "not found by the legacy look-up of other readers")
                    }
                    Err(e) => v.warning("ctg.legacy_lookup", at.clone(), format!("legacy look-up failed: {e}")),
                }
            }
            let pos = match normalized.real_position() {
                Ok(pos) => pos,
                Err(e) => {
                    v.error("ctg.key", at, format!("the key is not a valid position: {e}"));
                    continue;
                }
            };
            let legal = pos.legal_moves();
            for stored in record.moves() {
                let resolved = resolve(&legal, &normalized, stored.code);
                if let Some(problem) = resolved.problem() {
                    let what = format!("move code {:#04x}: {problem}", stored.code);
                    if matches!(resolved, Resolved::Alternative(_)) {
                        v.warning("ctg.move_code", at.clone(), what);
                    } else {
                        v.error("ctg.move_code", at.clone(), what);
                    }
                }
            }
        }
        if in_page != u64::from(page.declared_records) {
            v.error(
                "ctg.page_header",
                Location::file(ctg).with(Unit::Page, u64::from(page.number)).with_offset(page.offset),
                format!("page header announces {} records, the used bytes hold {in_page}", page.declared_records),
            );
        }
    }
    if header.positions as u64 != n.records {
        // ChessBase's count is approximate (PowerPlay17: 13,321 for 13,305 records).
        v.warning(
            "ctg.header_positions",
            Location::file(ctg).with_offset(0x18),
            format!("header says {} positions, the pages hold {}", header.positions, n.records),
        );
    }
    v.checked("pages", n.pages)
        .checked("records", n.records)
        .checked("moves", n.moves)
        .checked("ep_records", n.ep_records)
        .checked("castling_records", n.castling_records)
        .checked("pages_with_stale_bytes", n.stale_pages);
    if book.tree().is_some() {
        v.checked("found_exact", n.found_exact).checked("found_legacy", n.found_legacy);
    }
    check_index(book, &mut v);
    v
}

/// The .ctb bounds and bitmap against the .cto entries and the pages.
fn check_index(book: &Book, v: &mut Verification) {
    let Some(tree) = book.tree() else { return };
    let paths = book.paths();
    let (cto, ctb) = (Location::file(&paths.cto), Location::file(&paths.ctb));
    let leading_ff = tree.split.iter().take_while(|&&b| b == 0xff).count() as u64;
    if u64::from(tree.lower) != 8 * leading_ff {
        v.error(
            "ctg.ctb_lower",
            ctb.with_offset(0x4),
            format!("lower bound {} is not 8 × {leading_ff} leading 0xFF bytes", tree.lower),
        );
    }
    if tree.cto_lower != tree.lower {
        v.warning(
            "ctg.cto_lower",
            cto.clone().with_offset(0xc),
            format!("copy of the lower bound is {}, the .ctb says {}", tree.cto_lower, tree.lower),
        );
    }
    let leaves = tree.leaves();
    let mut pages_seen = vec![0u32; book.page_count() as usize];
    for &(bucket, page) in &leaves {
        let at = cto.clone().with_offset(16 + 4 * bucket);
        match usize::try_from(page).ok().and_then(|p| pages_seen.get_mut(p)) {
            Some(seen) => *seen += 1,
            None if page == -1 => {}
            None => v.error(
                "ctg.cto_page",
                at,
                format!("bucket {bucket} names page {page}, the book has {}", book.page_count()),
            ),
        }
    }
    for (page, &seen) in pages_seen.iter().enumerate() {
        if seen != 1 {
            v.error(
                "ctg.cto_page",
                cto.clone(),
                format!("data page {page} is the page of {seen} leaf buckets, expected 1"),
            );
        }
    }
    let splits = tree.split.iter().map(|b| u64::from(b.count_ones())).sum::<u64>();
    let highest_leaf = leaves.last().map_or(0, |&(bucket, _)| bucket);
    if tree.pages.len() as u64 != highest_leaf + 1 {
        v.warning(
            "ctg.cto_entries",
            cto.with_offset(0x4),
            format!("{} entries, the highest leaf bucket is {highest_leaf}", tree.pages.len()),
        );
    }
    let header = book.header();
    if header.split_marker == 12 && u64::from(header.splits) != splits {
        v.warning(
            "ctg.header_splits",
            Location::file(&paths.ctg).with_offset(0x804),
            format!("header says {} splits, the .ctb has {splits}", header.splits),
        );
    }
    v.checked("leaf_buckets", leaves.len() as u64).checked("splits", splits);
}
