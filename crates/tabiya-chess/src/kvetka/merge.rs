//! Combining books: `--append` adds a new book's elements to an existing one with the
//! document's block-splitting rule; merging several books into a new file packs them anew.
//! Either way statistics add up, moves are united, references follow their sources.

use super::build::{BuildReport, KeySet, add_links, fit};
use super::element::Element;
use super::error::KvetkaError;
use super::ksf::Sources;
use super::{Book, Header};

/// Adds `new` into `existing` (same key): W/D/L summed, moves united in ascending order, the
/// first some_source kept, game links concatenated (then cut to 682 bytes), the first
/// comment kept.
fn merge_element(existing: &mut Element, new: Element, element_type: u8, report: &mut BuildReport) {
    existing.wins = existing.wins.saturating_add(new.wins);
    existing.draws = existing.draws.saturating_add(new.draws);
    existing.losses = existing.losses.saturating_add(new.losses);
    existing.moves.extend_from_slice(&new.moves);
    existing.moves.sort_unstable();
    existing.moves.dedup();
    if existing.some_source.is_none() && new.some_source.is_some() {
        existing.set_some_source(new.some_source);
    }
    if !new.links().is_empty() {
        let mut links = existing.links().to_vec();
        links.extend_from_slice(new.links());
        existing.set_game_links(links);
    }
    if existing.comment.is_none() && new.comment.is_some() {
        existing.set_comment(new.comment);
    }
    fit(existing, element_type, report);
}

/// The elements of `book` ready to join a book with `header` whose sources come first:
/// references shifted by `source_offset`, or dropped when `header` keeps none.
fn incoming(book: Book, header: &Header, source_offset: usize) -> Result<Vec<Element>, KvetkaError> {
    let offset = u16::try_from(source_offset).map_err(|_| KvetkaError::unrepresentable("more than 65,536 sources"))?;
    let shift = |r: super::SourceRef| super::SourceRef { source: r.source.saturating_add(offset), game: r.game };
    let keep = header.references() && book.header.references();
    let mut out = Vec::with_capacity(book.element_count());
    for block in book.blocks {
        for mut e in block.elements {
            if keep {
                e.some_source = e.some_source.map(shift);
                let links: Vec<_> = e.links().iter().copied().map(shift).collect();
                if !links.is_empty() {
                    e.set_game_links(links);
                }
            } else {
                e.set_some_source(None);
                e.set_game_links(Vec::new());
            }
            out.push(e);
        }
    }
    Ok(out)
}

fn join_sources(target: &mut Option<Sources>, more: Option<Sources>, references: bool) -> usize {
    let offset = target.as_ref().map_or(0, |s| s.sources.len());
    if references {
        target.get_or_insert_with(Sources::default).sources.extend(more.map(|s| s.sources).unwrap_or_default());
    }
    offset
}

/// Adds `new` to `existing` in place: each element goes where its key belongs and a full
/// block splits in two (the seed's rule), so the blocks before it keep their place. With the
/// header's `links`, link moves are searched again over the whole book.
pub fn append(existing: &mut Book, new: Book, report: &mut BuildReport) -> Result<(), KvetkaError> {
    let element_type = existing.header.element_type;
    let offset = join_sources(&mut existing.sources, new.sources.clone(), existing.header.references());
    for e in incoming(new, &existing.header, offset)? {
        existing.insert(e, &mut |old, e| merge_element(old, e, element_type, report));
    }
    if existing.header.links != 0 {
        let keys: KeySet = existing.elements().map(|e| e.key).collect();
        for index in 0..existing.blocks.len() {
            report.link_moves += add_links(&mut existing.blocks[index].elements, &|k| keys.contains(k));
        }
        existing.split_full_blocks();
    }
    report.positions = existing.element_count() as u64;
    Ok(())
}

/// A new book holding all of `books` (the first one's header), packed greedily.
pub fn merge(books: Vec<Book>) -> Result<(Book, BuildReport), KvetkaError> {
    let mut report = BuildReport::default();
    let mut books = books.into_iter();
    let Some(first) = books.next() else { return Ok((Book::default(), report)) };
    let header = first.header.clone();
    let mut sources = None;
    let mut elements: Vec<Element> = Vec::new();
    for book in std::iter::once(first).chain(books) {
        let offset = join_sources(&mut sources, book.sources.clone(), header.references());
        elements.extend(incoming(book, &header, offset)?);
    }
    elements.sort_by_key(|e| e.key);
    let mut merged: Vec<Element> = Vec::with_capacity(elements.len());
    for e in elements {
        match merged.last_mut() {
            Some(last) if last.key == e.key => merge_element(last, e, header.element_type, &mut report),
            _ => merged.push(e),
        }
    }
    if header.links != 0 {
        let keys: KeySet = merged.iter().map(|e| e.key).collect();
        report.link_moves += add_links(&mut merged, &|k| keys.contains(k));
    }
    report.positions = merged.len() as u64;
    let mut book = Book::from_elements(header, merged)?;
    book.sources = sources;
    Ok((book, report))
}
