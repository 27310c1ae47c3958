"""read_games and write_games against python-chess and the corpus."""

import gzip
import io

import chess
import chess.pgn
import pytest

import tabiya
from conftest import corpus_file


def python_chess_games(path, limit=None):
    """python-chess's games of a file. A blank line too many between the tags and the moves
    (pgnmentor's files have them) ends a game for python-chess, whose next game is then the
    moves alone, with no tags: those are joined back, as tabiya reads them (with a warning)."""
    games = []
    with open(path, encoding="utf-8", errors="replace") as f:
        while limit is None or len(games) < limit:
            game = chess.pgn.read_game(f)
            if game is None:
                break
            headerless = game.headers.get("Event") == "?" and game.headers.get("White") == "?"
            if headerless and games and not list(games[-1].mainline_moves()):
                games[-1] = _joined(games[-1], game)
            else:
                games.append(game)
    return games


def _joined(tags, moves):
    game = chess.pgn.Game()
    game.headers.update(tags.headers)
    node = game
    for move in moves.mainline_moves():
        node = node.add_main_variation(move)
    return game


def test_sample_matches_python_chess(sample_pgn):
    ours = list(tabiya.read_games(sample_pgn))
    theirs = python_chess_games(sample_pgn)
    assert len(ours) == len(theirs) == 12
    for a, b in zip(ours, theirs):
        assert a.moves == [m.uci() for m in b.mainline_moves()]
        board = b.board()
        san = []
        for m in b.mainline_moves():
            san.append(board.san(m))
            board.push(m)
        assert a.san == san
        assert a.tags == dict(b.headers)
        assert a.result == b.headers["Result"]


def test_medium_file_game_counts_and_moves():
    path = corpus_file("pgn/medium-pgnmentor-12players.pgn")
    # python-chess takes a minute for the whole file: its first 3,000 games, and the games
    # counted by their tag sections.
    theirs = python_chess_games(path, limit=3000)
    ours = list(tabiya.read_games(path))
    for a, b in zip(ours, theirs):
        assert a.moves == [m.uci() for m in b.mainline_moves()]
        assert a.tag("White") == b.headers.get("White")
    with open(path, "rb") as f:
        tag_sections = sum(1 for line in f if line.startswith(b"[Event "))
    assert len(ours) == tag_sections == 31990


def test_comments_nags_variations_and_round_trip_to_python_chess():
    path = corpus_file("pgn/small-varied.pgn")
    ours = list(tabiya.read_games(path, on_error="skip"))
    theirs = python_chess_games(path)
    assert ours, "games read"
    by_moves = {tuple(m.uci() for m in g.mainline_moves()): g for g in theirs}
    compared = 0
    for game in ours:
        expected = by_moves.get(tuple(game.moves))
        # Compared where python-chess read the game whole: it ends a game at a blank line
        # inside the movetext (corpus game 2,318), which tabiya reads on with a warning.
        split = any("pgn.blank_line_in_movetext" in str(w) for w in game.warnings)
        if expected is None or expected.errors or split:
            continue
        converted = game.to_python_chess()
        assert [m.uci() for m in converted.mainline_moves()] == game.moves
        # Variations: the same alternatives at every node of the main line.
        a, b = converted, expected
        while a.variations and b.variations:
            assert [v.move.uci() for v in a.variations] == [v.move.uci() for v in b.variations]
            assert a.variations[0].nags == b.variations[0].nags
            a, b = a.variations[0], b.variations[0]
        compared += 1
    assert compared >= len(ours) // 2


def test_tree_gives_variations_comments_and_nags():
    text = '[Event "t"]\n[Result "*"]\n\n{start} 1. e4 $1 {best} (1. d4 d5 {q}) 1... e5 *\n'
    (game,) = list(tabiya.read_games(io.StringIO(text)))
    tree = game.tree()
    assert tree["comments"] == ["start"]
    first = tree["moves"][0]
    assert (first["uci"], first["san"], first["nags"], first["comments"]) == ("e2e4", "e4", [1], ["best"])
    variation = first["variations"][0]
    assert [m["san"] for m in variation["moves"]] == ["d4", "d5"]
    assert variation["moves"][1]["comments"] == ["q"]
    assert game.tree(raw=True)["comments"] == [b"start"]
    exported = chess.pgn.StringExporter(headers=False, variations=True, comments=True)
    assert game.to_python_chess().accept(exported).startswith("{ start } 1. e4 $1 { best } ( 1. d4 d5 { q } ) 1... e5")


def test_bytes_on_request():
    text = '[Event "Zürich"]\n[Result "*"]\n\n1. e4 {Très bien} *\n'
    (game,) = list(tabiya.read_games(io.BytesIO(text.encode("utf-8"))))
    assert game.tag("Event") == "Zürich"
    assert game.tag("Event", raw=True) == "Zürich".encode("utf-8")
    assert (b"Event", "Zürich".encode("utf-8")) in game.raw_tags
    assert game.tree(raw=True)["moves"][0]["comments"] == ["Très bien".encode("utf-8")]
    # Latin-1 PGN: text as the file means it.
    (game,) = list(tabiya.read_games(io.BytesIO(text.encode("latin-1"))))
    assert game.tag("Event") == "Zürich"
    assert game.tree()["moves"][0]["comments"] == ["Très bien"]


def test_compressed_pgn_gives_the_same_games(tmp_path, sample_pgn):
    packed = tmp_path / "famous.pgn.gz"
    packed.write_bytes(gzip.compress(sample_pgn.read_bytes()))
    plain = [(g.tags, g.moves) for g in tabiya.read_games(sample_pgn)]
    assert [(g.tags, g.moves) for g in tabiya.read_games(packed)] == plain


def test_scid_databases_match_their_pgn_export():
    for stem in ["scid5/fischer_5", "scid5/five_5"]:
        si5 = corpus_file(stem + ".si5")
        export = corpus_file(stem + ".export.pgn")
        ours = list(tabiya.read_games(si5))
        theirs = python_chess_games(export)
        assert len(ours) == len(theirs) > 0
        for a, b in zip(ours, theirs):
            assert a.moves == [m.uci() for m in b.mainline_moves()]


def test_start_fen_and_warnings():
    fen = "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"
    text = f'[FEN "{fen}"]\n[SetUp "1"]\n[Result "*"]\n\n1. e4 *\n'
    (game,) = list(tabiya.read_games(io.StringIO(text)))
    assert game.start_fen == fen
    assert game.moves == ["e2e4"]
    assert game.to_python_chess().board().fen() == fen


def test_unreadable_game_raises_with_file_and_offset(tmp_path):
    bad = tmp_path / "bad.pgn"
    bad.write_text('[Event "a"]\n[Result "*"]\n\n1. e4 *\n\n[Event "b"]\n[FEN "not a fen"]\n[Result "*"]\n\n1. e4 *\n')
    reader = tabiya.read_games(bad)
    assert next(reader).moves == ["e2e4"]
    with pytest.raises(tabiya.TabiyaError) as raised:
        next(reader)
    assert raised.value.file == str(bad)
    assert raised.value.offset is not None and raised.value.offset > 0
    assert raised.value.code.startswith("pgn.")
    skipping = tabiya.read_games(bad, on_error="skip")
    assert len(list(skipping)) == 1
    assert len(skipping.errors) == 1 and skipping.errors[0]["file"] == str(bad)


def test_missing_file_raises():
    with pytest.raises(tabiya.TabiyaError):
        tabiya.read_games("/nonexistent/games.pgn")


@pytest.mark.parametrize("suffix", [".pgn", ".jsonl", ".si4", ".si5"])
def test_writers_round_trip(tmp_path, sample_pgn, suffix):
    games = list(tabiya.read_games(sample_pgn))
    out = tmp_path / ("out" + suffix)
    assert tabiya.write_games(out, games) == len(games)
    back = list(tabiya.read_games(out))
    assert [(g.tags, g.moves) for g in back] == [(g.tags, g.moves) for g in games]
    with pytest.raises(FileExistsError):
        tabiya.write_games(out, games)
    if suffix == ".pgn":
        theirs = python_chess_games(out)
        assert [[m.uci() for m in g.mainline_moves()] for g in theirs] == [g.moves for g in games]
