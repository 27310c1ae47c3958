//! The start positions of handicap games (駒落ち), by their `手合割` names. The handicap side
//! (上手, gote on the board) gives up pieces and moves first.

use shogi_core::PartialPosition;

use super::sfen;

/// `手合割` names and their start positions, as 柿木将棋, Shogidokoro and rsshogi define them.
const HANDICAPS: [(&str, &str); 14] = [
    ("平手", "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"),
    ("香落ち", "lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"),
    ("右香落ち", "1nsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"),
    ("角落ち", "lnsgkgsnl/1r7/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"),
    ("飛車落ち", "lnsgkgsnl/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"),
    ("飛香落ち", "lnsgkgsn1/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"),
    ("二枚落ち", "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"),
    ("三枚落ち", "lnsgkgsn1/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"),
    ("四枚落ち", "1nsgkgsn1/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"),
    ("五枚落ち", "2sgkgsn1/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"),
    ("左五枚落ち", "1nsgkgs2/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"),
    ("六枚落ち", "2sgkgs2/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"),
    ("八枚落ち", "3gkg3/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"),
    ("十枚落ち", "4k4/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"),
];

/// The start position a `手合割` value names (`香落ち`, `二枚落ち`, `平手`), if it names one.
pub fn start(name: &str) -> Option<PartialPosition> {
    let (_, text) = HANDICAPS.iter().find(|(n, _)| *n == name.trim())?;
    sfen::parse(text).ok()
}

/// Whether the value names a handicap (any known `手合割` but 平手): the handicap side moves
/// first.
pub fn is_handicap(name: &str) -> bool {
    name.trim() != "平手" && HANDICAPS.iter().any(|(n, _)| *n == name.trim())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_handicap_removes_only_gote_pieces_and_gote_moves() {
        let even = start("平手").unwrap();
        for (name, _) in &HANDICAPS[1..] {
            let p = start(name).unwrap_or_else(|| panic!("{name}"));
            assert_eq!(p.side_to_move(), shogi_core::Color::White, "{name}");
            assert_eq!(p.player_bitboard(shogi_core::Color::Black), even.player_bitboard(shogi_core::Color::Black));
            assert!(p.player_bitboard(shogi_core::Color::White).count() < 20, "{name}");
        }
    }
}
