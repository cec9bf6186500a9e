"""Records: read_run against `stackchess stats` on runs `selfplay` wrote, and games replayed."""

import collections
import re

import pytest
from conftest import run_cli

from stackchess import Board, RuleSet, read_run, replay

VALUE = {"P": 1, "N": 3, "B": 3, "R": 5, "Q": 9}
RULES_ENDINGS = {"checkmate", "stalemate", "repetition", "fifty-moves", "dead-material"}


def stats_table(cli, directory):
    """`stackchess stats DIR`'s first table (columns found by its line of dashes): games, White's
    wins, draws, Black's wins."""
    out = run_cli(cli, "stats", str(directory)).stdout.splitlines()
    header, dashes, row = out[1], out[2], out[3]
    spans = [m.span() for m in re.finditer(r"-+", dashes)]
    cells = {header[a:b].strip(): row[a:b].strip() for a, b in spans}
    return {k: int(cells[k]) for k in ("games", "white_wins", "draws", "black_wins")}


def test_read_run_gives_the_games_and_results_of_stats(cli, run_dir):
    variant, directory = run_dir
    run = read_run(directory)
    games = run.games
    assert run.version == 2
    counts = collections.Counter(games["result"].to_list())
    expected = stats_table(cli, directory)
    assert games.height == expected["games"] == 6
    assert (counts["1-0"], counts["1/2-1/2"], counts["0-1"]) == (
        expected["white_wins"], expected["draws"], expected["black_wins"],
    )
    assert set(games["variant"].to_list()) == {variant}
    assert run.plies.height == sum(games["plies"].to_list())
    assert str(games.schema["seed"]) == "UInt64" and str(run.plies.schema["score_cp"]) == "Int64"
    dicts = read_run(directory, frame="dicts")
    assert [g["game_id"] for g in dicts.games] == games["game_id"].to_list()
    assert dicts.games[0].keys() == set(games.columns)


def test_pandas_frames(run_dir):
    pd = pytest.importorskip("pandas")
    _, directory = run_dir
    run = read_run(directory, frame="pandas")
    assert isinstance(run.games, pd.DataFrame) and len(run.games) == 6
    assert str(run.games["seed"].dtype) == "uint64" and str(run.plies["mate"].dtype) == "Int64"
    boards = list(replay(run.games.iloc[0]))
    assert len(boards) == run.games["plies"].iloc[0] + 1


def test_replay_reproduces_each_games_record(run_dir):
    variant, directory = run_dir
    run = read_run(directory)
    plies = run.plies
    for game in run.games.iter_rows(named=True):
        boards = list(replay(game))
        moves = game["moves"].split()
        assert len(boards) == game["plies"] + 1 == len(moves) + 1
        assert boards[0].lfen() == game["start_lfen"]
        assert boards[0].rules == RuleSet.named(variant) and boards[0].rules.id == game["rules_id"]
        rows = plies.filter(plies["game_id"] == game["game_id"]).sort("ply")
        level_changes = {"white": 0, "black": 0}
        for board, row in zip(boards, rows.iter_rows(named=True)):
            move = board.parse_move(row["move"])
            assert move.san(board) == row["san"]
            if move.from_cell[:-2] != move.to_cell[:-2]:
                level_changes[board.turn] += 1
        end = boards[-1]
        assert [m.uci() for m in end.move_stack] == moves
        material = {"white": 0, "black": 0}
        for code in end.pieces().flatten().tolist():
            if code != 0 and abs(code) != 6:
                material["white" if code > 0 else "black"] += VALUE["PNBRQ"[abs(code) - 1]]
        assert (material["white"], material["black"]) == (game["material_white"], game["material_black"])
        assert (level_changes["white"], level_changes["black"]) == (game["level_changes_white"], game["level_changes_black"])
        outcome = end.outcome()
        if game["termination"] in RULES_ENDINGS:
            assert (outcome.termination, outcome.result) == (game["termination"], game["result"])
        else:
            assert outcome is None


def test_read_run_errors(tmp_path, run_dir):
    with pytest.raises(FileNotFoundError, match="games.csv"):
        read_run(tmp_path / "nowhere")
    _, directory = run_dir
    bad = tmp_path / "bad"
    bad.mkdir()
    text = (directory / "games.csv").read_text().splitlines()
    text[2] = text[2].replace(",1-0,", ",2-0,").replace(",0-1,", ",2-0,").replace(",1/2-1/2,", ",2-0,")
    (bad / "games.csv").write_text("\n".join(text) + "\n")
    with pytest.raises(ValueError, match=r"games.csv:3: result '2-0'"):
        read_run(bad)
    with pytest.raises(ValueError, match="frame must be"):
        read_run(directory, frame="arrow")
    game = read_run(directory, frame="dicts").games[0]
    with pytest.raises(ValueError, match="played under rules"):
        list(replay(game, RuleSet.builtin("traditional")))
    broken = dict(game, moves="zz " + game["moves"])
    with pytest.raises(ValueError, match=r"ply 1: bad move 'zz'"):
        list(replay(broken))
