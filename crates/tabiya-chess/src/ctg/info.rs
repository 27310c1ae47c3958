//! `info` of a book: pages, records, moves, and the header and index fields.

use tabiya_io::report::Info;

use super::CtgError;
use super::read::Book;

/// What the book holds; every record is read to count them. Opening's warnings (truncation,
/// missing index) are the report's problems.
pub fn info(book: &Book) -> Result<Info, CtgError> {
    let (mut records, mut moves) = (0u64, 0u64);
    for record in book.records() {
        records += 1;
        moves += record?.moves().len() as u64;
    }
    let header = book.header();
    let mut info = Info::new(&book.paths().ctg, crate::Format::Ctg.name());
    info.count("pages", book.page_count()).count("positions", records).count("moves", moves);
    info.count("games", header.games);
    info.header("page_size", header.page_size)
        .header("data_pages", header.data_pages)
        .header("positions", header.positions)
        .header("games", header.games)
        .header("splits", header.splits);
    match book.tree() {
        Some(tree) => {
            info.header("ctb_lower", tree.lower)
                .header("ctb_upper", tree.upper)
                .header("cto_entries", tree.pages.len() as u64)
                .header("leaf_buckets", tree.leaves().len() as u64);
        }
        None => {
            info.header("index", "missing (.cto/.ctb): pages walked");
        }
    }
    info.problems = book.warnings().to_vec();
    Ok(info)
}
