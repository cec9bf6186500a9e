"""The engine: deterministic under a node limit, MultiPV, the command line's move, settings, the GIL."""

import threading
import time

import pytest
from conftest import BUILTINS, run_cli

from stackchess import Board, Engine, RuleSet


def summary(lines):
    return [(l.score, l.depth, l.nodes, [m.uci() for m in l.pv], l.pv_san) for l in lines]


@pytest.mark.parametrize("name", BUILTINS)
def test_analyse_is_deterministic_under_a_node_limit(name):
    board = Board(name)
    board.push(board.legal_moves()[3])
    engine = Engine(RuleSet.builtin(name))
    first = summary(engine.analyse(board, nodes=3000))
    assert summary(engine.analyse(board, nodes=3000)) == first
    assert summary(Engine(name).analyse(board, nodes=3000)) == first
    line = engine.analyse(board, nodes=3000)[0]
    assert line.pv and line.score_cp is not None and line.mate is None
    replayed, sans = board.copy(), []
    for m in line.pv:
        sans.append(m.san(replayed))
        replayed.push(m)
    assert sans == line.pv_san


@pytest.mark.parametrize("name", ["malka", "fide"])
def test_multipv_gives_that_many_lines_with_different_first_moves(name):
    board = Board(name)
    lines = Engine(name).analyse(board, nodes=6000, multipv=3)
    assert len(lines) == 3
    firsts = [l.pv[0] for l in lines]
    assert len(set(firsts)) == 3 and all(m in board.legal_moves() for m in firsts)
    assert summary(Engine(name).analyse(board, nodes=6000, multipv=3)) == summary(lines)
    few = Board("fide", "7k/8/8/8/8/8/8/K7 w - - 0 1")
    assert len(Engine("fide").analyse(few, depth=3, multipv=10)) == len(few.legal_moves())


@pytest.mark.parametrize("name", BUILTINS)
def test_play_is_the_command_lines_bestmove(cli, name):
    board = Board(name)
    out = run_cli(cli, "analyse", "--variant", name, "--nodes", "4000").stdout.splitlines()
    assert out[-1] == f"bestmove {Engine(name).play(board, nodes=4000).uci()}"


def test_mate_and_no_legal_move():
    board = Board("fide")
    for m in ["f3", "e5", "g4"]:
        board.push(m)
    line = Engine("fide").analyse(board, depth=3)[0]
    assert (line.mate, line.score_cp, line.pv_san[0], line.score) == (1, None, "Qh4#", "mate 1")
    board.push("Qh4#")
    assert Engine("fide").play(board, depth=3) is None
    assert Engine("fide").analyse(board, depth=3)[0].pv == []


def test_settings_and_errors(tmp_path):
    engine = Engine("malka", params={"value.queen": 123, "search.lmr": False, "search.hash": 1})
    described = engine.describe()
    assert "value.queen=123" in described and "hash=1 " in described and "lmr" not in described.split(" eval")[0]
    assert "preset malka with value.queen=123" in described
    preset = Engine("malka").describe()
    params = tmp_path / "x.params"
    params.write_text("search.lmr = false\n")
    assert Engine("malka", params=params).describe() == preset.replace("nmp,lmr,", "nmp,")
    with pytest.raises(ValueError, match="value.king"):
        Engine("malka", params={"value.king": 5})
    params.write_text("tempo = 3\n")
    with pytest.raises(ValueError, match=r"params file .*x.params: line 2: the file ends without"):
        Engine("malka", params=params)
    with pytest.raises(FileNotFoundError):
        Engine("malka", params=tmp_path / "missing.params")
    with pytest.raises(FileNotFoundError, match="missing.nnue"):
        Engine("malka", net=tmp_path / "missing.nnue")
    with pytest.raises(TypeError, match="net must be"):
        Engine("malka", net=3)
    with pytest.raises(ValueError, match="give a limit"):
        engine.analyse(Board("malka"))
    with pytest.raises(ValueError, match="the board is of traditional and the engine plays malka"):
        engine.analyse(Board("traditional"), nodes=10)
    assert isinstance(engine.evaluate(Board("malka")), int)


def test_the_gil_is_released_while_it_searches():
    engine = Engine("malka")
    board = Board("malka")
    done = []
    worker = threading.Thread(target=lambda: done.append(engine.analyse(board, movetime=600)))
    ticks = 0
    worker.start()
    time.sleep(0.05)
    while worker.is_alive():
        ticks += 1
        time.sleep(0.002)
    worker.join()
    assert done and done[0][0].pv
    # Holding the GIL, the search would have kept this thread from running until it ended.
    assert ticks > 20, ticks


@pytest.fixture(scope="module")
def fide_net(cli, tmp_path_factory):
    """A small net for fide trained by the command line (`datagen`, then `train`)."""
    d = tmp_path_factory.mktemp("net")
    run_cli(cli, "datagen", "-v", "fide", "--games", "4", "--nodes", "300", "--seed", "5", "--threads", "1",
            "--quiet", "--out", str(d / "fide.data"))
    run_cli(cli, "train", "-v", "fide", "--data", str(d / "fide.data"), "--out", str(d / "fide.nnue"),
            "--hidden", "8", "--epochs", "2", "--threads", "1")
    return d / "fide.nnue"


def test_a_net_plays_as_on_the_command_line(cli, fide_net):
    board = Board("fide")
    board.push("e4")
    netted = Engine("fide", net=fide_net)
    assert "net=" in netted.describe() and "net=" not in Engine("fide", net="linear").describe()
    assert netted.evaluate(board) != Engine("fide").evaluate(board)
    out = run_cli(cli, "analyse", "--variant", "fide", "--lfen", board.lfen(), "--eval", f"net:{fide_net}",
                  "--nodes", "3000").stdout.splitlines()
    assert out[-1] == f"bestmove {netted.play(board, nodes=3000).uci()}"
    with pytest.raises(ValueError, match="the net is for rule set"):
        Engine("malka", net=str(fide_net))
