"""Boards: perft and drawings against the command line, push and pop, python-chess, errors."""

import random

import chess
import pytest
from conftest import BUILTINS, ROOT, run_cli

from stackchess import Board, RuleSet

PERFT_DEPTH = {"malka": 3, "traditional": 3, "fide": 4, "air-attack": 3}


def random_game(board, rng, plies):
    """Pushes up to `plies` random legal moves; returns the LFEN before each move and at the end."""
    seen = [board.lfen()]
    for _ in range(plies):
        moves = board.legal_moves()
        if not moves or board.outcome() is not None:
            break
        board.push(rng.choice(moves))
        seen.append(board.lfen())
    return seen


@pytest.mark.parametrize("name", BUILTINS)
def test_perft_from_the_start_is_the_command_lines(cli, name):
    depth = PERFT_DEPTH[name]
    out = run_cli(cli, "perft", "--variant", name, "--depth", str(depth)).stdout
    assert Board(RuleSet.builtin(name)).perft(depth) == int(out.split()[-1])


@pytest.mark.parametrize("name", BUILTINS)
def test_moves_san_and_drawing_are_the_command_lines(cli, name):
    board = Board(name)
    random_game(board, random.Random(name), 30)
    lfen = board.lfen()
    listed = run_cli(cli, "moves", "--variant", name, "--lfen", lfen).stdout.splitlines()
    ours = [f"{m.uci()} {m.san(board)}" for m in board.legal_moves()]
    assert ours == listed
    assert str(Board(name, lfen)) == run_cli(cli, "show", "--variant", name, "--lfen", lfen).stdout
    assert str(board).splitlines()[0].split() == [w for lv in range(1, board.rules.levels + 1) for w in ("level", str(lv))]


@pytest.mark.parametrize("name", BUILTINS)
@pytest.mark.parametrize("seed", range(4))
def test_random_games_pushed_and_popped_restore_the_lfen(name, seed):
    board = Board(name)
    seen = random_game(board, random.Random(seed), 200)
    assert len(board.move_stack) == len(seen) - 1
    copy = board.copy()
    for lfen in reversed(seen[:-1]):
        board.pop()
        assert board.lfen() == lfen
    with pytest.raises(IndexError):
        board.pop()
    # The copy kept its own moves.
    assert copy.lfen() == seen[-1] and len(copy.move_stack) == len(seen) - 1


def test_fide_agrees_with_python_chess_on_random_positions():
    rng = random.Random(7)
    positions = 0
    for _ in range(40):
        reference = chess.Board()
        ours = Board("fide")
        while not reference.is_game_over(claim_draw=False) and reference.ply() < 150:
            fen = reference.fen(en_passant="fen")
            assert ours.lfen() == fen
            fresh = Board("fide", fen)
            expected = sorted(m.uci() for m in reference.legal_moves)
            assert sorted(m.uci() for m in fresh.legal_moves()) == expected, fen
            assert sorted(m.uci() for m in ours.legal_moves()) == expected, fen
            assert fresh.is_check() == reference.is_check(), fen
            for m in ours.legal_moves():
                assert m.san(ours) == reference.san(chess.Move.from_uci(m.uci())), fen
            positions += 1
            move = rng.choice(list(reference.legal_moves))
            reference.push(move)
            ours.push(move.uci())
        outcome = reference.outcome(claim_draw=False)
        if outcome is not None and outcome.termination in (chess.Termination.CHECKMATE, chess.Termination.STALEMATE):
            assert ours.outcome() is not None
            assert ours.outcome().result == outcome.result()
            assert ours.outcome().termination == outcome.termination.name.lower()
    assert positions > 1000


def test_moves_cells_and_pieces():
    board = Board(RuleSet.builtin("malka"))
    codes = board.pieces()
    levels = board.rules.levels
    assert tuple(codes.shape) == (levels, 8, 8)
    letters = " PNBRQK"
    for level in range(levels):
        for rank in range(8):
            for file in range(8):
                cell = f"{level + 1}{'abcdefgh'[file]}{rank + 1}"
                code = int(codes[level, rank, file])
                piece = board.piece_at(cell)
                assert piece == (None if code == 0 else letters[abs(code)] if code > 0 else letters[-code].lower())
    move = board.parse_move("1e21e3")
    assert (move.from_cell, move.to_cell, move.promotion, move.is_transfer, move.kind) == ("1e2", "1e3", None, False, "normal")
    assert move == board.push("1e3") and board.turn == "black" and board.move_stack == [move]
    fide = Board("fide").parse_move("e4")
    assert (fide.uci(), fide.from_cell, fide.kind, str(fide), repr(fide)) == ("e2e4", "e2", "double-step", "e2e4", "Move('e2e4')")
    air = Board("air-attack")
    transfers = [m for m in air.legal_moves() if m.is_transfer]
    assert transfers and all(m.from_cell[0] == "1" and m.to_cell[0] == "2" for m in transfers)


def test_repetition_and_mate_outcomes():
    board = Board("fide")
    for _ in range(2):
        for m in ["g1f3", "g8f6", "f3g1", "f6g8"]:
            assert board.outcome() is None
            board.push(m)
    assert (board.outcome().termination, board.outcome().result, board.outcome().winner) == ("repetition", "1/2-1/2", None)
    board.pop()
    assert board.outcome() is None
    mate = Board("fide")
    for m in ["f3", "e5", "g4", "Qh4#"]:
        mate.push(m)
    assert (mate.outcome().termination, mate.outcome().winner, mate.is_check()) == ("checkmate", "black", True)


def test_a_malformed_lfen_raises_value_error_with_the_message(cli):
    bad = "8/8/8/8/8/8/PPPPPPPP/RNBQKBNR|8/8/8/8/8/8/8/8 w KQkq - 0 1"
    with pytest.raises(ValueError) as e:
        Board("malka", bad)
    message = str(e.value)
    assert message.startswith("invalid LFEN")
    assert message in run_cli(cli, "show", "--variant", "malka", "--lfen", bad, check=False).stderr
    with pytest.raises(ValueError, match="invalid LFEN, side to move"):
        Board("fide", "8/8/8/8/8/8/8/K6k x - - 0 1")


def test_bad_moves_and_cells_raise_value_error():
    board = Board("malka")
    with pytest.raises(ValueError, match="bad move '1e21e4'"):
        board.push("1e21e4")
    with pytest.raises(ValueError, match="bad move 'Qxz9'"):
        board.push("Qxz9")
    with pytest.raises(ValueError, match="bad cell '4a1'"):
        board.piece_at("4a1")
    with pytest.raises(ValueError, match="is not a legal move"):
        Board("malka").parse_move("1e21e3").san(_after(Board("malka"), "1d21d3"))
    with pytest.raises(ValueError, match="move of a 1-level board"):
        board.push(Board("fide").legal_moves()[0])
    assert board.lfen() == Board("malka").lfen()
    with pytest.raises(TypeError):
        board.push(3)


def _after(board, move):
    b = board.copy()
    b.push(move)
    return b


def test_rule_sets():
    malka = RuleSet.builtin("malka")
    assert (malka.name, malka.levels, len(malka.id)) == ("malka", 3, 16)
    assert RuleSet.named("fide") == RuleSet.builtin("fide")
    again = RuleSet.from_toml(malka.to_toml())
    assert again == malka and again.id == malka.id
    with pytest.raises(ValueError, match="unknown variant 'chess'"):
        RuleSet.builtin("chess")


def test_a_bad_rule_file_raises_value_error_with_the_message(cli, tmp_path):
    path = tmp_path / "bad.toml"
    path.write_text('name = "bad"\nbase = "malka"\n\n[pieces]\nqueen = { planar-orthogonal = "fly" }\n')
    with pytest.raises(ValueError) as e:
        RuleSet.from_file(path)
    message = str(e.value)
    assert message.startswith(f"rule file {path}: ") and "line 5: fly: invalid value" in message, message
    assert message in run_cli(cli, "rules", "check", str(path), check=False).stderr
    with pytest.raises(FileNotFoundError, match="no-such.toml"):
        RuleSet.from_file(tmp_path / "no-such.toml")
    with pytest.raises(FileNotFoundError):
        Board(f"rules:{tmp_path / 'no-such.toml'}")


def test_a_rule_file_loads_and_plays(cli):
    path = ROOT / "data" / "rules" / "two-level.toml"
    rules = RuleSet.from_file(path)
    assert rules.levels == 2 and RuleSet.named(rules.name) == rules
    assert Board(f"rules:{path}").rules == rules
    expected = int(run_cli(cli, "perft", "--variant", f"rules:{path}", "--depth", "3").stdout.split()[-1])
    assert Board(rules).perft(3) == expected
