//! Checking a stored solution against its diagram: every move legal, every attacker move a
//! check, the last position mate, the length equal to 詰手数 and to the `まで N手詰` trailer, the
//! attacker's hand used up (駒余り otherwise), the mate position equal to the 詰上り fields.

use shogi_core::{Move, PartialPosition};

use crate::board::{self, ATTACKER, HAND_KINDS};
use crate::notation::japanese::{self, piece_name};
use crate::tbase::{Diagram, Solution};
use tabiya_io::{Diagnostic, Location};

/// What replaying a solution found.
#[derive(Debug, Clone, Default)]
pub struct SolutionCheck {
    /// The moves that resolved, in order (all of them when the line is legal).
    pub moves: Vec<Move>,
    /// Whether the line resolved completely and ends in mate.
    pub mates: bool,
    /// What the replay found, errors and warnings.
    pub findings: Vec<Diagnostic>,
}

impl SolutionCheck {
    /// The line mates and nothing is an error.
    pub fn is_ok(&self) -> bool {
        self.mates && !tabiya_io::any_error(&self.findings)
    }
}

/// Replays `solution` on `diagram` and checks it.
pub fn check_solution(diagram: &Diagram, solution: &Solution) -> SolutionCheck {
    let mut check = SolutionCheck::default();
    let at = solution.location.clone();
    let error = |check: &mut SolutionCheck, code: &'static str, what: String| {
        check.findings.push(Diagnostic::error(code, at.clone(), what))
    };
    let Ok(start) = diagram.position() else {
        error(
            &mut check,
            "tbase.piece_totals",
            "the diagram's piece totals exceed a set: the solution cannot be replayed".into(),
        );
        return check;
    };
    let mut position = start;
    let mut previous = None;
    for (i, text) in solution.moves.iter().enumerate() {
        let ply = i + 1;
        let token = match japanese::parse_token(text) {
            Ok((token, len)) if len == text.len() => token,
            _ => {
                error(&mut check, "tbase.solution_move", format!("move {ply} {text:?}: not a move"));
                return check;
            }
        };
        let mv = match japanese::resolve(&position, previous, &token) {
            Ok(mv) => mv,
            Err(expected) => {
                error(&mut check, "tbase.solution_move", format!("move {ply} {text:?}: expected {expected}"));
                return check;
            }
        };
        let mover = position.side_to_move();
        if position.make_move(mv).is_none() {
            error(&mut check, "tbase.solution_move", format!("move {ply} {text:?}: not playable"));
            return check;
        }
        check.moves.push(mv);
        previous = Some(mv.to());
        if mover == ATTACKER && !board::in_check(&position) {
            error(
                &mut check,
                "tbase.not_check",
                format!("move {ply} {text:?} ({}): the attacker's move does not give check", board::usi(mv)),
            );
        }
    }
    check.mates = board::is_mate(&position);
    if !check.mates {
        let replies = board::legal_moves(&position).len();
        let what = if position.side_to_move() == ATTACKER {
            "the solution ends with a defender's move, not mate".to_owned()
        } else {
            format!("the last position is not mate: the defender has {replies} legal moves")
        };
        error(&mut check, "tbase.not_mate", what);
    }
    let played = check.moves.len();
    if let Some(stored) = diagram.moves.filter(|&n| usize::from(n) != played) {
        error(&mut check, "tbase.move_count", format!("詰手数 is {stored}, the solution has {played} moves"));
    }
    if let Some(stated) = solution.length.filter(|&n| usize::from(n) != played) {
        error(
            &mut check,
            "tbase.trailer_count",
            format!("the trailer says まで{stated}手詰, the solution has {played} moves"),
        );
    }
    final_position_findings(diagram, &position, &solution.location, &mut check.findings);
    check
}

/// 駒余り and the 詰上り fields, from the position after the last move.
fn final_position_findings(diagram: &Diagram, end: &PartialPosition, at: &Location, findings: &mut Vec<Diagnostic>) {
    let left: Vec<String> = HAND_KINDS
        .iter()
        .zip(board::hand_counts(end.hand_of_a_player(ATTACKER)))
        .filter(|(_, n)| *n > 0)
        .map(|(&k, n)| format!("{}{}", piece_name(k), if n > 1 { n.to_string() } else { String::new() }))
        .collect();
    if !left.is_empty() {
        findings.push(Diagnostic::warning(
            "tbase.pieces_left",
            at.clone(),
            format!("駒余り: {} left in the attacker's hand", left.join(" ")),
        ));
    }
    let king = end.king_position(board::DEFENDER);
    if let (Some(stored), Some(king)) = (diagram.final_king, king)
        && stored != king
    {
        let what = format!(
            "詰上り玉位置 is {}{}, the king ends on {}{}",
            stored.file(),
            stored.rank(),
            king.file(),
            king.rank()
        );
        findings.push(Diagnostic::warning("tbase.final_king", at.clone(), what));
    }
    let pieces = end.occupied_bitboard().count();
    if let Some(stored) = diagram.final_pieces.filter(|&n| u32::from(n) != u32::from(pieces)) {
        findings.push(Diagnostic::warning(
            "tbase.final_pieces",
            at.clone(),
            format!("詰上り駒数 is {stored}, the mate position has {pieces} pieces"),
        ));
    }
    let attackers = end.player_bitboard(ATTACKER).count();
    if let Some(stored) = diagram.final_attacker_pieces.filter(|&n| u32::from(n) != u32::from(attackers)) {
        let what = format!("詰上り攻方駒数 is {stored}, the mate position has {attackers} attacker pieces");
        findings.push(Diagnostic::warning("tbase.final_attacker_pieces", at.clone(), what));
    }
}
