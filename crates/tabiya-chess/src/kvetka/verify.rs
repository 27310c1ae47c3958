//! `verify` and `info` of a Kvetka book: the reader's checks (spec section 11), then every
//! key decoded to a legal position and every move code to a legal move there.

use std::path::Path;

use serde_json::json;
use tabiya_io::report::{Info, Verification};
use tabiya_io::{Diagnostic, Location, Unit};

use super::conventions::ReadOptions;
use super::read::{KinState, Opened, open};
use super::{KvetkaError, key, moves};
use crate::boardcode::Normalized;

/// Reads the whole book strictly and checks it; a book that cannot be read is one error
/// (`kvetka.read`), not an `Err`.
pub fn verify(path: &Path) -> Verification {
    let mut v = Verification::new(path, crate::Format::Kvetka.name());
    match open(path, ReadOptions { strict: true, ..ReadOptions::default() }) {
        Ok(opened) => check(&opened, &mut v),
        Err(e) => v.problem(Diagnostic::error("kvetka.read", Location::file(path), e.to_string())),
    }
    v
}

/// The checks of [`verify`] on a book already read: what reading found, then each element's
/// key (`kvetka.key`: not a position) and move codes (`kvetka.move_code`: no legal move).
pub fn check(opened: &Opened, v: &mut Verification) {
    v.problems(opened.problems.iter().cloned());
    let part = opened.files.part(0);
    let mut moves = 0u64;
    // Blocks are numbered across all parts, as the .kob stream counts them.
    for (b, block) in opened.book.blocks.iter().enumerate() {
        let location = || Location::file(&part).with(Unit::Block, b as u64);
        for e in &block.elements {
            let pos = match key::check(&e.key) {
                Ok(pos) => pos,
                Err(why) => {
                    v.problem(Diagnostic::error("kvetka.key", location(), format!("key {}: {why}", e.key.to_hex())));
                    continue;
                }
            };
            let norm = Normalized::new(&pos);
            for &code in &e.moves {
                moves += 1;
                if moves::decode_move(&norm, &pos, code).is_none() {
                    let message = format!("key {}: move code {code:#04x} is not a legal move there", e.key.to_hex());
                    v.problem(Diagnostic::error("kvetka.move_code", location(), message));
                }
            }
        }
    }
    v.checked("parts", opened.parts.len())
        .checked("blocks", opened.book.blocks.len())
        .checked("positions", opened.book.element_count())
        .checked("moves", moves)
        .checked("kin", kin_name(opened.kin));
    if let Some(sources) = &opened.book.sources {
        v.checked("games", sources.sources.iter().map(|s| s.games.len()).sum::<usize>());
    }
}

/// What the book holds (counts) and its header, read leniently.
pub fn info(path: &Path) -> Result<Info, KvetkaError> {
    let opened = open(path, ReadOptions::default())?;
    let book = &opened.book;
    let mut info = Info::new(path, crate::Format::Kvetka.name());
    info.version = json!(1);
    info.count("parts", opened.parts.len())
        .count("blocks", book.blocks.len())
        .count("positions", book.element_count())
        .count("moves", book.elements().map(|e| e.moves.len()).sum::<usize>())
        .count("comments", book.elements().filter(|e| e.comment.is_some()).count());
    if let Some(sources) = &book.sources {
        info.count("sources", sources.sources.len())
            .count("games", sources.sources.iter().map(|s| s.games.len()).sum::<usize>());
    }
    let h = &book.header;
    info.header("caption", h.caption.clone())
        .header("least_white_elo", h.min_white_elo)
        .header("least_black_elo", h.min_black_elo)
        .header("least_strong_elo", h.min_strong_elo)
        .header("least_weak_elo", h.min_weak_elo)
        .header("max_move", h.max_move)
        .header("element_type", h.element_type)
        .header("links", h.links)
        .header("block_number", book.blocks.len())
        .header("kin", kin_name(opened.kin));
    info.problems = opened.problems;
    Ok(info)
}

/// How the `.kin` stood, for people and scripts.
fn kin_name(kin: KinState) -> &'static str {
    match kin {
        KinState::Absent => "absent",
        KinState::Agrees => "agrees",
        KinState::Ignored => "ignored (disagrees with the .kob)",
    }
}
