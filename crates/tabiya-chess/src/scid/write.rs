//! Writing databases: new ones and appends, SCID 4 and SCID 5, the way SCID 5.0.2 writes them.
//!
//! Crash safety and concurrency: a writer holds the database's [`Transaction`] from the start
//! (so a second writer waits, and an append reads the database only once it is its own) and
//! commits the three files in it: after a kill at any instant, the next open finds the old
//! database or the new one, whole.

use std::io::Write;
use std::path::Path;

use tabiya_io::{AtomicFile, Diagnostic, Location, Transaction, Unit};

use super::database::{Database, DatabasePaths};
use super::encode::{Encoded, MAX_RECORD, encode_game};
use super::index::{Header, IndexEntry, MAX_GAMES_SI4};
use super::names::{NameBase, NameTable, NameType};
use super::{ScidError, Version, codes};
use crate::game::Game;

/// What a write did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct WriteSummary {
    /// Games stored by this writer.
    pub written: u64,
    /// Games that could not be stored.
    pub skipped: u64,
    /// What was lost, in order, each located by the game's number among those added (from 1):
    /// games that could not be stored ([`codes::UNSTORABLE_GAME`]) and fields a stored game lost
    /// ([`codes::UNSTORABLE_FIELD`], e.g. an EventDate SCID 4 cannot hold).
    pub diagnostics: Vec<Diagnostic>,
    /// Games in the database after the write.
    pub total: u64,
}

impl WriteSummary {
    /// Game `number` (from 1) could not be stored.
    fn skip(&mut self, number: u64, reason: impl Into<String>) {
        self.skipped += 1;
        let message = format!("not stored: {}", reason.into());
        self.diagnostics.push(Diagnostic::error(codes::UNSTORABLE_GAME, Location::of(Unit::Game, number), message));
    }
}

/// Adds games to a new or existing database; nothing is visible until [`DatabaseWriter::finish`].
pub struct DatabaseWriter {
    paths: DatabasePaths,
    header: Header,
    entries: Vec<IndexEntry>,
    names: NameTable,
    /// .sn5 records of the names added by this writer, in order of first use.
    sn5_new: Vec<u8>,
    sn5_old: Vec<u8>,
    games: AtomicFile,
    games_len: u64,
    input_count: u64,
    /// The name IDs of the game this writer stored last (IDs from the table, the first of equal
    /// names).
    last_ids: Option<[u32; 5]>,
    summary: WriteSummary,
    /// The lock on the database, and the commit of its files.
    transaction: Transaction,
}

impl DatabaseWriter {
    /// Starts a new, empty database of `version` at `path` (any of its file names or its stem),
    /// which replaces the one there on [`DatabaseWriter::finish`]. Waits while another writer
    /// holds the database.
    pub fn create(path: &Path, version: Version) -> Result<DatabaseWriter, ScidError> {
        let paths = writable(path, version)?;
        let transaction = begin(&paths)?;
        DatabaseWriter::empty(paths, transaction)
    }

    /// The writer of a new database, under `transaction`.
    fn empty(paths: DatabasePaths, transaction: Transaction) -> Result<DatabaseWriter, ScidError> {
        let games = AtomicFile::create(&paths.games).map_err(|e| ScidError::io(&paths.games, e))?;
        Ok(DatabaseWriter {
            paths,
            header: Header::default(),
            entries: Vec::new(),
            names: NameTable::default(),
            sn5_new: Vec::new(),
            sn5_old: Vec::new(),
            games,
            games_len: 0,
            input_count: 0,
            last_ids: None,
            summary: WriteSummary::default(),
            transaction,
        })
    }

    /// Opens the SCID 4 or 5 database at `path` to append games to it, or starts a new one of
    /// `version` when there is none. Waits while another writer holds the database, and reads
    /// it only then: two appends at once both land.
    pub fn append(path: &Path, version: Version) -> Result<DatabaseWriter, ScidError> {
        let paths = writable(path, version)?;
        let transaction = begin(&paths)?;
        if !paths.index.exists() {
            return DatabaseWriter::empty(paths, transaction);
        }
        let db = Database::open(&paths.index)?;
        let mut games = AtomicFile::create(&db.paths.games).map_err(|e| ScidError::io(&db.paths.games, e))?;
        games.write_all(db.game_file()).map_err(|e| ScidError::io(&db.paths.games, e))?;
        let sn5_old =
            if db.version == Version::Scid5 { tabiya_io::read_input(&db.paths.names)?.to_vec() } else { Vec::new() };
        let mut names = NameTable::from_base(db.names.clone());
        for e in &db.entries {
            count_names(&mut names, e);
        }
        Ok(DatabaseWriter {
            games_len: db.game_file().len() as u64,
            paths: db.paths,
            header: db.header,
            entries: db.entries,
            names,
            sn5_new: Vec::new(),
            sn5_old,
            games,
            input_count: 0,
            last_ids: None,
            summary: WriteSummary::default(),
            transaction,
        })
    }

    /// The version written.
    pub fn version(&self) -> Version {
        self.paths.version
    }

    /// The database's three files.
    pub fn paths(&self) -> &DatabasePaths {
        &self.paths
    }

    /// Adds a game, or records why it cannot be stored and goes on. Fails only when the
    /// game file cannot be written.
    pub fn add(&mut self, game: &Game) -> Result<(), ScidError> {
        self.add_encoded(encode_game(game, self.paths.version))
    }

    /// Adds a game already encoded with [`encode_game`] for this writer's version, so that
    /// callers can encode on several threads and store in order.
    pub fn add_encoded(&mut self, encoded: Result<Encoded, String>) -> Result<(), ScidError> {
        self.input_count += 1;
        let number = self.input_count;
        let version = self.paths.version;
        if version == Version::Scid4 && self.entries.len() >= MAX_GAMES_SI4 {
            self.summary.skip(number, format!("SCID 4 holds at most {MAX_GAMES_SI4} games"));
            return Ok(());
        }
        let encoded = match encoded {
            Ok(e) => e,
            Err(reason) => {
                self.summary.skip(number, reason);
                return Ok(());
            }
        };
        if let Some(date) = encoded.dropped_event_date {
            let message = format!("EventDate {} is not within 3 years of the game date; dropped", date.to_pgn());
            let at = Location::of(Unit::Game, number);
            self.summary.diagnostics.push(Diagnostic::error(codes::UNSTORABLE_FIELD, at, message));
        }
        self.summary.diagnostics.extend(encoded.diagnostics(number));
        // Name limits, checked before any name is added.
        let kinds = [NameType::Event, NameType::Site, NameType::Round, NameType::Player, NameType::Player];
        let names = encoded.names();
        for (name, kind) in names.iter().zip(kinds) {
            if version == Version::Scid4 && name.len() > 255 {
                self.summary.skip(number, format!("{} name longer than 255 bytes", kind.label()));
                return Ok(());
            }
        }
        // Consecutive games often share event and site: the names of the game stored last are
        // checked before the table is searched (a search that misses the cache).
        let last_ids = self.last_ids;
        let known = std::array::from_fn::<_, 5, _>(|i| match last_ids {
            Some(last) if self.names.base.get(kinds[i], last[i]) == Some(names[i]) => Some(last[i]),
            _ => self.names.get(kinds[i], names[i]),
        });
        for (kind, known) in kinds.into_iter().zip(known) {
            let limit = if version == Version::Scid4 { kind.limit_si4() as u64 } else { kind.limit_si5() };
            if known.is_none() && self.names.base.len(kind) as u64 + 1 >= limit {
                self.summary.skip(number, format!("too many {} names", kind.label()));
                return Ok(());
            }
        }
        let mut ids = [0u32; 5];
        for (((name, kind), id), known) in names.into_iter().zip(kinds).zip(&mut ids).zip(known) {
            *id = match known {
                Some(id) => id,
                None => {
                    let (new_id, is_new) = self.names.id(kind, name);
                    if is_new && version == Version::Scid5 {
                        NameBase::sn5_record(kind, name, &mut self.sn5_new);
                    }
                    new_id
                }
            };
        }
        let mut e = encoded.entry;
        [e.event, e.site, e.round, e.white, e.black] = ids;
        self.last_ids = Some(ids);
        // The 128 KiB block rule: a record never crosses a multiple of 128 KiB.
        let record = encoded.record();
        let len = record.len() as u64;
        let space = MAX_RECORD as u64 - self.games_len % MAX_RECORD as u64;
        let mut padding = 0;
        if space < len {
            padding = space;
        }
        let offset = self.games_len + padding;
        if version == Version::Scid4 && offset + len > u64::from(u32::MAX) {
            self.summary.skip(number, "the .sg4 file would exceed 4 GiB");
            return Ok(());
        }
        let io = |e| ScidError::io(&self.paths.games, e);
        self.games.write_all(&vec![0; padding as usize]).map_err(io)?;
        self.games.write_all(record).map_err(io)?;
        self.games_len = offset + len;
        e.set_offset(offset);
        count_names(&mut self.names, &e);
        self.entries.push(e);
        self.summary.written += 1;
        Ok(())
    }

    /// Calls `hook` after each step of [`DatabaseWriter::finish`]'s commit (see
    /// [`Transaction::on_step`]). For tests that kill the writer at every step.
    #[doc(hidden)]
    pub fn on_commit_step(&mut self, hook: impl FnMut(usize) + Send + 'static) {
        self.transaction.on_step(hook);
    }

    /// Writes names and index and puts the three files in place as one commit (game file,
    /// names, index), then releases the database.
    pub fn finish(mut self) -> Result<WriteSummary, ScidError> {
        let paths = self.paths.clone();
        let mut names = Vec::new();
        let mut index = Vec::with_capacity(self.entries.len() * 56 + 182);
        match paths.version {
            Version::Scid5 => {
                names = std::mem::take(&mut self.sn5_old);
                names.extend_from_slice(&self.sn5_new);
                for e in &self.entries {
                    e.write_si5(&mut index);
                }
            }
            _ => {
                self.names.base.write_sn4(&self.names.frequency, &mut names);
                self.header.num_games = self.entries.len() as u32;
                self.header.write_si4(&mut index);
                for e in &self.entries {
                    e.write_si4(&mut index);
                }
            }
        }
        let names = AtomicFile::with_bytes(&paths.names, &names).map_err(|e| ScidError::io(&paths.names, e))?;
        let index = AtomicFile::with_bytes(&paths.index, &index).map_err(|e| ScidError::io(&paths.index, e))?;
        self.transaction.commit(vec![self.games, names, index]).map_err(|e| ScidError::io(&paths.index, e))?;
        self.summary.total = self.entries.len() as u64;
        Ok(self.summary)
    }
}

/// The files of the SCID 4 or 5 database `version` at `path`.
fn writable(path: &Path, version: Version) -> Result<DatabasePaths, ScidError> {
    if version == Version::Scid3 {
        return Err(ScidError::Unstorable { game: 0, reason: "SCID 3 databases are read-only".into() });
    }
    Ok(DatabasePaths::with_version(path, version))
}

/// Locks the database at `paths` and completes what an interrupted writer left.
fn begin(paths: &DatabasePaths) -> Result<Transaction, ScidError> {
    Transaction::begin(&paths.stem(), || {}).map_err(|e| ScidError::io(&paths.index, e))
}

fn count_names(names: &mut NameTable, e: &IndexEntry) {
    names.count_use(NameType::Player, e.white);
    names.count_use(NameType::Player, e.black);
    names.count_use(NameType::Event, e.event);
    names.count_use(NameType::Site, e.site);
    names.count_use(NameType::Round, e.round);
}

/// Writes `games` into a new database; games that cannot be stored are skipped and listed.
pub fn write_database(
    path: &Path,
    version: Version,
    games: impl IntoIterator<Item = Game>,
) -> Result<WriteSummary, ScidError> {
    let mut writer = DatabaseWriter::create(path, version)?;
    for game in games {
        writer.add(&game)?;
    }
    writer.finish()
}
