//! The 全詰連 T-BASE tsume-shogi database: `.dia` diagram files (330-byte Shift-JIS records),
//! `.tjn` solution files and `.rem` comment files, keyed by the 4-digit 作品番号.
//!
//! A `.dia` record has the same byte geometry in its two forms: 4 lines (100/124/48/50 bytes +
//! CR LF each) or 3 lines, where the 2 bytes after line 2 hold 詰上り攻方駒数 instead of CR LF.
//! Fields are sliced by byte offset before Shift-JIS decoding. The attacker's hand is line 1;
//! the defender holds every piece that is neither on the board nor in that hand.
//!
//! [`Diagram::decode`] reads every field; [`Diagram::encode`] writes a record with the derived
//! fields (持駒数, 玉位置, 使用駒数/種類, 置駒数/種類) computed from the board, and the opaque
//! index and classification bytes written back as read, so decoding then encoding a consistent
//! record gives the same 330 bytes.
//!
//! ```
//! use tabiya_shogi::tbase::{Diagram, read_solutions};
//! use tabiya_shogi::tsume::check_solution;
//!
//! let (diagram, findings) = Diagram::decode_checked(include_bytes!("../../tests/data/example_3line.dia"), 0)?;
//! assert!(findings.is_empty());
//! assert_eq!((diagram.number, diagram.moves), (3, Some(17)));
//! let (solutions, _) = read_solutions(include_bytes!("../../tests/data/example.tjn"));
//! let check = check_solution(&diagram, &solutions[0]);
//! assert!(check.is_ok() && check.moves.len() == 17);
//! # Ok::<(), tabiya_shogi::Error>(())
//! ```

mod comments;
mod convert;
pub mod letters;
mod read;
mod set;
mod solutions;
mod write;

pub use comments::{ColourCode, Comment, read_comments, write_comments};
pub use convert::{from_kifu, to_json, to_kifu};
pub use read::{DiaRecord, DiaRecords, RECORD_LEN, dia_records};
pub use set::{Contents, FileSet, Problem, info, verify};
pub use solutions::{Solution, read_solutions, write_solutions};
pub use write::{begin_set, commit_set};

use shogi_core::{Hand, PartialPosition, Square};

use crate::board;

/// The two physical layouts of a `.dia` record.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Form {
    /// 4 lines: CR LF after line 2, the 12 index fields on a line of their own.
    FourLine,
    /// 3 lines: 詰上り攻方駒数 in place of the CR LF after line 2.
    ThreeLine,
}

/// One problem of a `.dia` file, every field decoded. Text fields are trimmed of trailing ASCII
/// and full-width spaces; one-digit codes and numbers are `None` when blank.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagram {
    /// 3- or 4-line layout.
    pub form: Form,
    /// The pieces on the board (no hands; attacker = sente, defender = gote).
    pub board: PartialPosition,
    /// 持駒: the attacker's hand.
    pub attacker_hand: Hand,
    /// 作品番号 (0001–9999).
    pub number: u16,
    /// 作者名.
    pub author: String,
    /// 作者コード (4 bytes, kept as text).
    pub author_code: String,
    /// 出典.
    pub source: String,
    /// 出典コード (3 bytes).
    pub source_code: String,
    /// 出典中番号 (6 bytes, left-aligned).
    pub source_number: String,
    /// 発表年月: free text such as `元和２`.
    pub date: String,
    /// 詰手数.
    pub moves: Option<u16>,
    /// オリジナル: 0 新作, 1 再発表, 2 改作, 3 盗作.
    pub originality: Option<u8>,
    /// 記事.
    pub note: String,
    /// 作品題名.
    pub title: String,
    /// 実戦型: 0 none, 1 11香型, 2 21桂型, 3 both.
    pub jissen: Option<u8>,
    /// 完全性: 0 sound, 1 余詰/早詰, 2 不詰, 3 不詰・余早詰, 4 変長.
    pub completeness: Option<u8>,
    /// 入賞歴 (2 bytes).
    pub prizes: String,
    /// 作品原出典.
    pub original_source: String,
    /// 詰上り玉位置: the defender king's square in the mate position.
    pub final_king: Option<Square>,
    /// 詰上り駒数: pieces on the board in the mate position.
    pub final_pieces: Option<u8>,
    /// 詰上り攻方駒数 (3-line form only): the attacker's pieces among them.
    pub final_attacker_pieces: Option<u8>,
    /// The twelve 4-byte index fields (SAKU_ID … JISSEN_ID), meaning undocumented: kept raw.
    pub index: [u8; 48],
    /// Record bytes 289–327 after 置駒種類 and 置駒数: 置駒_ID, OKINUM_ID, MRK, ORG_NUM,
    /// KAITOU_SEG, KAITOU_DIF, HANTEN, SAKUJO, 分類コード; meaning undocumented: kept raw.
    pub tail: [u8; 39],
}

impl Diagram {
    /// A new record with the given board and attacker's hand, blank fields, 4-line form.
    pub fn new(number: u16, board: PartialPosition, attacker_hand: Hand) -> Diagram {
        Diagram {
            form: Form::FourLine,
            board,
            attacker_hand,
            number,
            author: String::new(),
            author_code: String::new(),
            source: String::new(),
            source_code: String::new(),
            source_number: String::new(),
            date: String::new(),
            moves: None,
            originality: None,
            note: String::new(),
            title: String::new(),
            jissen: None,
            completeness: None,
            prizes: String::new(),
            original_source: String::new(),
            final_king: None,
            final_pieces: None,
            final_attacker_pieces: None,
            index: [b' '; 48],
            tail: [b' '; 39],
        }
    }

    /// The problem position: the board, both hands (the defender holding the rest), the attacker
    /// to move. `Err(kind)` when the board and the attacker's hand hold more of a kind than the set.
    pub fn position(&self) -> Result<PartialPosition, shogi_core::PieceKind> {
        board::tsume_position(self.board.clone(), self.attacker_hand)
    }

    /// The SFEN of the problem position, with the defender's hand written out (or the board
    /// alone, with `-` hands, when the piece totals exceed the set).
    pub fn sfen(&self) -> String {
        crate::notation::sfen::write(&self.position().unwrap_or_else(|_| self.board.clone()))
    }

    /// The defender king's square (the first `Q` by file then rank).
    pub fn king_square(&self) -> Option<Square> {
        self.board.king_position(board::DEFENDER)
    }

    /// HANTEN (record byte 311), possibly "stored mirrored": blank in every known record.
    pub fn hanten(&self) -> u8 {
        self.tail[311 - 289]
    }

    /// SAKUJO (record byte 312), possibly "deleted".
    pub fn sakujo(&self) -> u8 {
        self.tail[312 - 289]
    }

    /// The meaning of the 完全性 code.
    pub fn completeness_text(&self) -> Option<&'static str> {
        Some(match self.completeness? {
            0 => "完全 (sound)",
            1 => "余早詰 (dual or shorter solution)",
            2 => "不詰 (no mate)",
            3 => "不詰・余早詰",
            4 => "変長 (longer variation)",
            _ => "unknown code",
        })
    }
}

/// The byte ranges of the record's fields, for messages and slicing.
pub(crate) mod field {
    pub const HAND: (usize, usize) = (0, 8);
    pub const HAND_TOTAL: (usize, usize) = (8, 2);
    pub const NUMBER: (usize, usize) = (102, 4);
    pub const AUTHOR: (usize, usize) = (106, 12);
    pub const AUTHOR_CODE: (usize, usize) = (118, 4);
    pub const SOURCE: (usize, usize) = (122, 20);
    pub const SOURCE_CODE: (usize, usize) = (142, 3);
    pub const SOURCE_NUMBER: (usize, usize) = (145, 6);
    pub const DATE: (usize, usize) = (151, 6);
    pub const KING: (usize, usize) = (157, 2);
    pub const MOVES: (usize, usize) = (159, 3);
    pub const ORIGINALITY: (usize, usize) = (162, 1);
    pub const USED_TOTAL: (usize, usize) = (163, 2);
    pub const USED_KINDS: (usize, usize) = (165, 9);
    pub const NOTE: (usize, usize) = (174, 18);
    pub const TITLE: (usize, usize) = (192, 10);
    pub const JISSEN: (usize, usize) = (202, 1);
    pub const COMPLETENESS: (usize, usize) = (203, 1);
    pub const PRIZES: (usize, usize) = (204, 2);
    pub const ORIGINAL_SOURCE: (usize, usize) = (206, 16);
    pub const FINAL_KING: (usize, usize) = (222, 2);
    pub const FINAL_PIECES: (usize, usize) = (224, 2);
    pub const FINAL_ATTACKER: (usize, usize) = (226, 2);
    pub const INDEX: (usize, usize) = (228, 48);
    pub const BOARD_KINDS: (usize, usize) = (278, 9);
    pub const BOARD_TOTAL: (usize, usize) = (287, 2);
    pub const TAIL: (usize, usize) = (289, 39);
    /// Record offsets of the CR LF line ends present in both forms.
    pub const LINE_ENDS: [usize; 3] = [100, 276, 328];

    /// Record offset of the cell of file `f`, rank `r` (both 1–9).
    pub fn cell(file: u8, rank: u8) -> usize {
        10 + 10 * (usize::from(file) - 1) + usize::from(rank) - 1
    }
}
