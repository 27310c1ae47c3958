//! An open database: index and names in memory, the game file memory-mapped and decoded on
//! demand, game by game.

use std::borrow::Cow;
use std::path::{Path, PathBuf};

use tabiya_io::{DataError, Diagnostic, FileBytes, Location, Unit, read_input};

use shakmaty::san::SanPlus;

use super::decode::{Record, decode_record, decode_record_with_san};
use super::fields::{Eco, result_from_code};
use super::index::{Header, Index, IndexEntry};
use super::names::{NameBase, NameType};
use super::{ScidError, Version};
use crate::game::{Game, Tags};
use crate::text::Text;

/// The three files of a database.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DatabasePaths {
    /// The version, from the extension and the index header.
    pub version: Version,
    /// The index file (.si3/.si4/.si5).
    pub index: PathBuf,
    /// The game file (.sg3/.sg4/.sg5).
    pub games: PathBuf,
    /// The name file (.sn3/.sn4/.sn5).
    pub names: PathBuf,
}

impl DatabasePaths {
    /// The files of the database named by any of its files (`x.si4`, `x.sg4`, `x.sn4`) or by
    /// its stem (`x`, then .si4, .si5 and .si3 are tried in that order).
    pub fn find(path: &Path) -> Result<DatabasePaths, ScidError> {
        if let Some(version) = path.extension().and_then(|e| e.to_str()).and_then(Version::from_extension) {
            return Ok(DatabasePaths::with_version(path, version));
        }
        for version in [Version::Scid4, Version::Scid5, Version::Scid3] {
            let paths = DatabasePaths::with_version(path, version);
            if paths.index.is_file() {
                return Ok(paths);
            }
        }
        Err(ScidError::NotScid(path.to_path_buf()))
    }

    /// The files of `version` beside `path` (its extension, if any, is replaced).
    pub fn with_version(path: &Path, version: Version) -> DatabasePaths {
        let stem = stem_of(path);
        let [i, g, n] = version.extensions();
        let with = |ext: &str| PathBuf::from(format!("{}.{ext}", stem.display()));
        DatabasePaths { version, index: with(i), games: with(g), names: with(n) }
    }

    /// The path of the database without extension, `dir/games` for `dir/games.si4`: what its
    /// lock and journal are named after ([`tabiya_io::Transaction`]).
    pub fn stem(&self) -> PathBuf {
        self.index.with_extension("")
    }
}

/// `path` without its SCID extension, if it has one.
fn stem_of(path: &Path) -> PathBuf {
    match path.extension().and_then(|e| e.to_str()).and_then(Version::from_extension) {
        Some(_) => path.with_extension(""),
        None => path.to_path_buf(),
    }
}

/// The rating tags of White and Black, in the order of [`RATING_TYPES`](super::fields::RATING_TYPES); an unknown type is Elo.
const RATING_TAGS: [[&str; 7]; 2] = [
    ["WhiteElo", "WhiteRating", "WhiteRapid", "WhiteICCF", "WhiteUSCF", "WhiteDWZ", "WhiteECF"],
    ["BlackElo", "BlackRating", "BlackRapid", "BlackICCF", "BlackUSCF", "BlackDWZ", "BlackECF"],
];

/// An open SCID database.
#[derive(Debug)]
pub struct Database {
    /// The three files.
    pub paths: DatabasePaths,
    /// The version.
    pub version: Version,
    /// The .si3/.si4 header; for SCID 5, the values from the .sn5 info records.
    pub header: Header,
    /// The index entries, one a game, in game order.
    pub entries: Vec<IndexEntry>,
    /// The player, event, site and round names.
    pub names: NameBase,
    /// Deviations found while opening: warnings about the index and name files. (Those of a
    /// game come with the game: [`Database::record`], [`Database::read_game`].)
    pub diagnostics: Vec<Diagnostic>,
    games: FileBytes,
}

impl Database {
    /// Opens a database: completes a commit that a killed writer left (so that the database
    /// read is the old one or the new one, whole), reads the index and the names, maps the
    /// game file.
    pub fn open(path: impl AsRef<Path>) -> Result<Database, ScidError> {
        let stem = stem_of(path.as_ref());
        tabiya_io::Transaction::recover(&stem).map_err(|e| ScidError::io(&stem, e))?;
        let paths = DatabasePaths::find(path.as_ref())?;
        let version = paths.version;
        let mut diagnostics = Vec::new();
        let index_file = std::fs::File::open(&paths.index).map_err(|e| ScidError::io(&paths.index, e))?;
        let index_size = index_file.metadata().map_err(|e| ScidError::io(&paths.index, e))?.len();
        let mut index_input = std::io::BufReader::with_capacity(1 << 16, index_file);
        let mut index_warnings = Vec::new();
        let Index { mut header, entries } =
            Index::read_from(&mut index_input, index_size, version, &mut index_warnings)
                .map_err(|e| e.in_file(&paths.index))?;
        let name_bytes = read_input(&paths.names)?;
        let mut name_warnings = Vec::new();
        let names = match version {
            Version::Scid5 => NameBase::read_sn5(&name_bytes, &mut header, &mut name_warnings),
            _ => NameBase::read_sn4(&name_bytes, &mut name_warnings),
        }
        .map_err(|e| e.in_file(&paths.names))?;
        for (found, file) in [(index_warnings, &paths.index), (name_warnings, &paths.names)] {
            diagnostics.extend(found.into_iter().map(|d| d.in_file(file)));
        }
        let games = read_input(&paths.games)?;
        Ok(Database { paths, version, header, entries, names, diagnostics, games })
    }

    /// Number of games.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// No games.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The game file's bytes.
    pub fn game_file(&self) -> &[u8] {
        &self.games
    }

    /// The raw record of game `n` (0-based).
    pub fn raw_record(&self, n: usize) -> Result<&[u8], ScidError> {
        let entry = self.entry(n)?;
        let start = usize::try_from(entry.offset()).unwrap_or(usize::MAX);
        let end = start.saturating_add(entry.length() as usize);
        self.games.get(start..end).ok_or_else(|| {
            at_game(
                DataError::new(
                    Location::at(entry.offset()).in_file(&self.paths.games),
                    "a game record inside the game file",
                )
                .found(format!(
                    "{} bytes at {:#x}, file size {:#x}",
                    entry.length(),
                    entry.offset(),
                    self.games.len()
                )),
                n,
            )
            .into()
        })
    }

    /// The index entry of game `n` (0-based).
    pub fn entry(&self, n: usize) -> Result<&IndexEntry, ScidError> {
        self.entries.get(n).ok_or_else(|| {
            DataError::new(Location::default().in_file(&self.paths.index), format!("game number ≤ {}", self.len()))
                .found((n + 1).to_string())
                .into()
        })
    }

    /// Decodes the record of game `n` (0-based); what decoding forgave goes to `diagnostics`.
    pub fn record(&self, n: usize, diagnostics: &mut Vec<Diagnostic>) -> Result<Record, ScidError> {
        self.decode(n, false, diagnostics).map(|(record, _)| record)
    }

    /// Games marked deleted (SCID keeps them until the database is compacted).
    pub fn deleted_count(&self) -> usize {
        self.entries.iter().filter(|e| e.deleted()).count()
    }

    /// [`Database::record`], with the SAN of its moves when `with_san` (see [`decode_record_with_san`]).
    fn decode(
        &self,
        n: usize,
        with_san: bool,
        diagnostics: &mut Vec<Diagnostic>,
    ) -> Result<(Record, Option<Vec<SanPlus>>), ScidError> {
        let entry = *self.entry(n)?;
        let data = self.raw_record(n)?;
        let mut local = Vec::new();
        let result = if with_san {
            decode_record_with_san(data, entry.offset(), entry.chess960(), &mut local)
        } else {
            decode_record(data, entry.offset(), entry.chess960(), &mut local).map(|record| (record, None))
        };
        for mut d in local {
            d.location = d.location.in_file(&self.paths.games).with(Unit::Game, n as u64 + 1);
            diagnostics.push(d);
        }
        result.map_err(|e| at_game(e.in_file(&self.paths.games), n).into())
    }

    /// Game `n` (0-based) with every tag, as SCID exports it; what decoding forgave is left
    /// out ([`Database::read_game`] gives it).
    pub fn game(&self, n: usize) -> Result<Game, ScidError> {
        self.read_game(n, &mut Vec::new())
    }

    /// Game `n` (0-based) with every tag, as SCID exports it; what decoding forgave goes to
    /// `diagnostics`.
    pub fn read_game(&self, n: usize, diagnostics: &mut Vec<Diagnostic>) -> Result<Game, ScidError> {
        let record = self.record(n, diagnostics)?;
        Ok(self.assemble(self.entry(n)?, record))
    }

    /// [`Database::read_game`] and the SAN of its moves, found while decoding, for
    /// [`crate::pgn::write::push_game_with_san`] (`None` when the writer must play the game).
    pub fn game_with_san(
        &self,
        n: usize,
        diagnostics: &mut Vec<Diagnostic>,
    ) -> Result<(Game, Option<Vec<SanPlus>>), ScidError> {
        let (record, san) = self.decode(n, true, diagnostics)?;
        Ok((self.assemble(self.entry(n)?, record), san))
    }

    /// Every game in index order.
    pub fn games(&self) -> impl Iterator<Item = Result<Game, ScidError>> + '_ {
        (0..self.len()).map(|n| self.game(n))
    }

    /// Joins index fields, names and a decoded record into a game, tags in SCID's export order:
    /// the seven-tag roster, ratings, ECO, EventDate, the extra tags, then FEN.
    pub fn assemble(&self, entry: &IndexEntry, record: Record) -> Game {
        let Record { tags: extra, start, start_text, moves, .. } = record;
        // Names are the name base's bytes; an ID out of range reads as `?`, as in SCID.
        let name = |kind, id| Cow::Borrowed(Text::new(self.names.get(kind, id).unwrap_or(b"?")));
        let text = |text: &'static str| Cow::Borrowed(Text::new(text));
        let result = result_from_code(entry.result());
        let (date, event_date) = (entry.date.pgn_bytes(), entry.event_date.pgn_bytes());
        let mut tags: Vec<(&Text, Cow<'_, Text>)> = Vec::with_capacity(16);
        tags.extend([
            (Text::new("Event"), name(NameType::Event, entry.event)),
            (Text::new("Site"), name(NameType::Site, entry.site)),
            (Text::new("Date"), Cow::Borrowed(Text::new(&date))),
            (Text::new("Round"), name(NameType::Round, entry.round)),
            (Text::new("White"), name(NameType::Player, entry.white)),
            (Text::new("Black"), name(NameType::Player, entry.black)),
            (Text::new("Result"), text(result.as_pgn())),
        ]);
        for (side, elo, kind) in
            [(0, entry.white_elo(), entry.white_rating_type()), (1, entry.black_elo(), entry.black_rating_type())]
        {
            if elo > 0 {
                let name = RATING_TAGS[side].get(usize::from(kind)).copied().unwrap_or(RATING_TAGS[side][0]);
                tags.push((Text::new(name), Cow::Owned(elo.to_string().into())));
            }
        }
        if let Some(eco) = Eco(entry.eco).to_text() {
            tags.push((Text::new("ECO"), Cow::Owned(eco.into())));
        }
        if entry.event_date.0 != 0 {
            tags.push((Text::new("EventDate"), Cow::Borrowed(Text::new(&event_date))));
        }
        // As SCID's `Game::Decode`: the Variant tag of a Chess960 game first, then each stored tag
        // assigned by name (a name seen before, or a roster name, takes the new value in place).
        let extra_start = tags.len();
        if entry.chess960() {
            tags.push((Text::new("Variant"), text("Chess960")));
        }
        let roster = ["Event", "Site", "Round", "White", "Black"];
        for (name, value) in &extra {
            let existing = tags.iter().enumerate().position(|(i, (n, _))| {
                *n == name.as_text() && (i >= extra_start || roster.iter().any(|r| *name == *r))
            });
            match existing {
                Some(i) => tags[i].1 = Cow::Borrowed(value.as_text()),
                None => tags.push((name.as_text(), Cow::Borrowed(value.as_text()))),
            }
        }
        if let Some(fen) = &start_text {
            tags.push((Text::new("FEN"), Cow::Borrowed(Text::new(fen))));
        }
        let bytes = tags.iter().map(|(n, v)| n.len() + v.len()).sum();
        let mut game_tags = Tags::with_capacity(tags.len(), bytes);
        for (name, value) in &tags {
            game_tags.push(name, value.as_bytes());
        }
        Game {
            tags: game_tags,
            start,
            castling_mode: if entry.chess960() {
                shakmaty::CastlingMode::Chess960
            } else {
                shakmaty::CastlingMode::Standard
            },
            moves,
            result,
        }
    }
}

/// `e`, located in game `n` (0-based) of the database.
fn at_game(mut e: DataError, n: usize) -> DataError {
    e.location = e.location.with(Unit::Game, n as u64 + 1);
    e
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scid::fields::RATING_TYPES;

    #[test]
    fn rating_tags_are_the_colour_and_the_rating_type() {
        for (side, color) in ["White", "Black"].into_iter().enumerate() {
            let expected: Vec<String> = RATING_TYPES.iter().map(|kind| format!("{color}{kind}")).collect();
            assert_eq!(RATING_TAGS[side], expected.as_slice());
        }
    }
}
