//! The games table: one row per game.
//!
//! | column | type | what |
//! |---|---|---|
//! | `game_index` | uint64 | the game's place in the output, from 0 |
//! | `Event` `Site` `Date` `Round` `White` `Black` | string | the first tag of that name (null when absent) |
//! | `Result` | string | the game's result: `1-0`, `0-1`, `1/2-1/2`, `*` |
//! | `WhiteElo` `BlackElo` | int32 | the tag as a number (null when absent or not a number) |
//! | `ECO` | string | the first `ECO` tag |
//! | `start_fen` | string | the start position, null for the standard one |
//! | `plies` | uint32 | half-moves of the main line |
//! | `moves` | list of string | the main line in UCI (`e2e4`, `e1g1`; `0000` a null move) |
//! | `movetext` | string | the PGN movetext on one line: moves, comments, NAGs, variations, result |
//! | `tags` | list of struct (`name`, `value`) | every tag of the game, in its order, duplicates kept |
//! | `text_encoding` | string | `utf-8`, or `latin-1` (see [`crate::text`]) |
//!
//! Tags vary between games: the ten columns above are the ones nearly every game carries and
//! queries filter on; `tags` holds them all (these ten again among them), so a tag only some
//! games have is found there (DuckDB: `list_filter(tags, t -> t.name = 'Annotator')`), and the
//! table reads back to the same games (see [`super::read`]).

use std::sync::Arc;

use arrow_array::builder::{
    ArrayBuilder, Int32Builder, ListBuilder, StringBuilder, StructBuilder, UInt32Builder, UInt64Builder,
};
use arrow_array::{ArrayRef, RecordBatch};
use arrow_schema::{DataType, Field, Fields, Schema};
use shakmaty::Move;
use tabiya_chess::game::Game;
use tabiya_chess::pgn::WriterOptions;
use tabiya_chess::pgn::write::push_game;

use crate::ArrowError;
use crate::table::Rows;
use crate::text::TextEncoding;

/// The tags with columns of their own, as strings.
pub const TAG_COLUMNS: [&str; 7] = ["Event", "Site", "Date", "Round", "White", "Black", "ECO"];
/// The rating tags, with integer columns.
pub const RATING_COLUMNS: [&str; 2] = ["WhiteElo", "BlackElo"];

fn tag_fields() -> Fields {
    Fields::from(vec![Field::new("name", DataType::Utf8, false), Field::new("value", DataType::Utf8, false)])
}

fn list_of_strings() -> DataType {
    DataType::List(Arc::new(Field::new("item", DataType::Utf8, true)))
}

/// The games table's schema (see the module's table).
pub fn schema() -> Schema {
    let mut fields = vec![Field::new("game_index", DataType::UInt64, false)];
    fields.extend(TAG_COLUMNS[..6].iter().map(|&name| Field::new(name, DataType::Utf8, true)));
    fields.push(Field::new("Result", DataType::Utf8, false));
    fields.extend(RATING_COLUMNS.iter().map(|&name| Field::new(name, DataType::Int32, true)));
    fields.push(Field::new("ECO", DataType::Utf8, true));
    fields.extend([
        Field::new("start_fen", DataType::Utf8, true),
        Field::new("plies", DataType::UInt32, false),
        Field::new("moves", list_of_strings(), false),
        Field::new("movetext", DataType::Utf8, false),
        Field::new("tags", DataType::List(Arc::new(Field::new("item", DataType::Struct(tag_fields()), true))), false),
        Field::new("text_encoding", DataType::Utf8, false),
    ]);
    Schema::new(fields)
}

/// The columns written without a dictionary: long texts that seldom repeat.
pub(crate) const PLAIN_COLUMNS: [&str; 3] = ["movetext", "moves.list.item", "start_fen"];

/// One game made ready for the table, on the thread that read it.
#[derive(Debug, Clone)]
pub struct GameRow {
    /// Every tag (name, value) as the columns hold them.
    tags: Vec<(String, String)>,
    encoding: TextEncoding,
    result: &'static str,
    start_fen: Option<String>,
    /// The main line's UCI moves, one after another; `move_ends` says where each ends.
    moves: String,
    move_ends: Vec<u32>,
    movetext: String,
}

/// How the movetext column is laid out: the whole movetext on one line, no tags.
fn movetext_options() -> WriterOptions {
    WriterOptions {
        line_width: 0,
        seven_tag_roster_first: false,
        other_tags: false,
        blank_line_after_tags: false,
        blank_line_after_game: false,
        ..WriterOptions::default()
    }
}

/// The UCI text of a main-line move (`0000` for a null move).
pub(crate) fn uci(mv: Option<&Move>, game: &Game) -> String {
    match mv {
        Some(mv) => mv.to_uci(game.castling_mode).to_string(),
        None => "0000".to_owned(),
    }
}

impl GameRow {
    /// The row of `game` (taken: its tags are moved out to write the movetext alone).
    pub fn new(mut game: Game) -> GameRow {
        let tags = std::mem::take(&mut game.tags);
        let mut movetext = Vec::with_capacity(512);
        push_game(&game, &movetext_options(), &mut movetext);
        // With no tags the writer writes only the SetUp and FEN of a game with a start
        // position: they are the tag lines before the movetext.
        let mut start = 0;
        while movetext[start..].starts_with(b"[") {
            start += movetext[start..].iter().position(|&b| b == b'\n').map_or(movetext.len() - start, |n| n + 1);
        }
        let movetext = movetext[start..].trim_ascii_end();
        let texts = tags.iter().flat_map(|(name, value)| [name.as_bytes(), value.as_bytes()]);
        let encoding = TextEncoding::of(texts.chain([movetext]));
        let mut moves = String::with_capacity(game.moves.nodes.len() * 4);
        let mut move_ends = Vec::with_capacity(game.moves.nodes.len());
        for node in &game.moves.nodes {
            moves.push_str(&uci(node.mv.as_ref(), &game));
            move_ends.push(moves.len() as u32);
        }
        GameRow {
            tags: tags
                .iter()
                .map(|(name, value)| {
                    (
                        encoding.to_column(name.as_bytes()).into_owned(),
                        encoding.to_column(value.as_bytes()).into_owned(),
                    )
                })
                .collect(),
            encoding,
            result: game.result.as_pgn(),
            start_fen: game.start.as_ref().map(ToString::to_string),
            moves,
            move_ends,
            movetext: encoding.to_column(movetext).into_owned(),
        }
    }

    fn tag(&self, name: &str) -> Option<&str> {
        self.tags.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
    }
}

/// The games table's rows being gathered into a batch.
pub(crate) struct GameRows {
    index: UInt64Builder,
    tags: [StringBuilder; 7],
    result: StringBuilder,
    ratings: [Int32Builder; 2],
    start_fen: StringBuilder,
    plies: UInt32Builder,
    moves: ListBuilder<StringBuilder>,
    movetext: StringBuilder,
    all_tags: ListBuilder<StructBuilder>,
    encoding: StringBuilder,
    next_index: u64,
}

impl GameRows {
    pub(crate) fn new() -> GameRows {
        GameRows {
            index: UInt64Builder::new(),
            tags: std::array::from_fn(|_| StringBuilder::new()),
            result: StringBuilder::new(),
            ratings: [Int32Builder::new(), Int32Builder::new()],
            start_fen: StringBuilder::new(),
            plies: UInt32Builder::new(),
            moves: ListBuilder::new(StringBuilder::new()),
            movetext: StringBuilder::new(),
            all_tags: ListBuilder::new(StructBuilder::from_fields(tag_fields(), 0)),
            encoding: StringBuilder::new(),
            next_index: 0,
        }
    }

    /// Adds a game's row.
    pub(crate) fn push(&mut self, row: &GameRow) {
        self.index.append_value(self.next_index);
        self.next_index += 1;
        for (builder, name) in self.tags.iter_mut().zip(TAG_COLUMNS) {
            builder.append_option(row.tag(name));
        }
        self.result.append_value(row.result);
        for (builder, name) in self.ratings.iter_mut().zip(RATING_COLUMNS) {
            builder.append_option(row.tag(name).and_then(|v| v.trim().parse::<i32>().ok()));
        }
        self.start_fen.append_option(row.start_fen.as_deref());
        self.plies.append_value(row.move_ends.len() as u32);
        let mut start = 0;
        for &end in &row.move_ends {
            self.moves.values().append_value(&row.moves[start..end as usize]);
            start = end as usize;
        }
        self.moves.append(true);
        self.movetext.append_value(&row.movetext);
        let entries = self.all_tags.values();
        for (name, value) in &row.tags {
            entries.field_builder::<StringBuilder>(0).expect("name column").append_value(name);
            entries.field_builder::<StringBuilder>(1).expect("value column").append_value(value);
            entries.append(true);
        }
        self.all_tags.append(true);
        self.encoding.append_value(row.encoding.name());
    }
}

impl Rows for GameRows {
    fn len(&self) -> usize {
        self.index.len()
    }

    fn batch(&mut self, schema: &Arc<Schema>) -> Result<RecordBatch, ArrowError> {
        let [event, site, date, round, white, black, eco] = &mut self.tags;
        let [white_elo, black_elo] = &mut self.ratings;
        let columns: Vec<ArrayRef> = vec![
            Arc::new(self.index.finish()),
            Arc::new(event.finish()),
            Arc::new(site.finish()),
            Arc::new(date.finish()),
            Arc::new(round.finish()),
            Arc::new(white.finish()),
            Arc::new(black.finish()),
            Arc::new(self.result.finish()),
            Arc::new(white_elo.finish()),
            Arc::new(black_elo.finish()),
            Arc::new(eco.finish()),
            Arc::new(self.start_fen.finish()),
            Arc::new(self.plies.finish()),
            Arc::new(self.moves.finish()),
            Arc::new(self.movetext.finish()),
            Arc::new(self.all_tags.finish()),
            Arc::new(self.encoding.finish()),
        ];
        // The list builders' fields are named `item` and nullable, as the schema says.
        Ok(RecordBatch::try_new(schema.clone(), columns)?)
    }
}
