"""Shogi records against python-shogi; T-BASE problems with their solutions."""

import shogi
import shogi.CSA
import shogi.KIF

from tabiya import shogi as tshogi


def test_tbase_problems_have_solutions(shogi_data):
    problems = tshogi.problems(shogi_data / "seed0003.dia")
    assert problems
    for problem in problems:
        board = shogi.Board(problem["sfen"])
        assert len(problem["solution_usi"]) == problem["moves"] > 0
        for usi in problem["solution_usi"]:
            move = shogi.Move.from_usi(usi)
            assert move in board.legal_moves
            board.push(move)
        assert board.is_checkmate()


def test_kif_converts_to_csa_that_python_shogi_reads(tmp_path, shogi_data):
    kif = shogi_data / "utf8_nobom.kif"
    theirs = shogi.KIF.Parser.parse_file(str(kif))[0]
    out = tmp_path / "game.csa"
    files, _, _ = tshogi.convert(kif, out)
    assert files == [str(out)]
    again = shogi.CSA.Parser.parse_file(str(out))[0]
    assert again["moves"] == theirs["moves"]
    assert again["sfen"] == theirs["sfen"]
