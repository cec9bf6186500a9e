#!/usr/bin/env python3
"""The engine's `fide` strength against an outside yardstick: `stackchess engine` against
Stockfish limited with UCI_LimitStrength/UCI_Elo, under a clock, driven by python-chess (the
reference UCI client). Not a test: a measurement, whose command and result README shows.

    python3 scripts/stockfish_yardstick.py --stackchess target/release/stackchess \
        --stockfish /usr/games/stockfish --elo 1350 --tc 10+0.1 --games 40 --seed 1

Each opening (a few random legal plies, drawn from --seed) is played twice with colours swapped.
A side whose clock runs out (beyond --margin) loses on time; an engine that crashes or sends an
illegal move loses the game. Prints every game and then stackchess's score with the Elo
difference and its 95% interval (trinomial normal approximation, as cutechess-cli prints it).
"""

import argparse
import math
import random
import sys
import time

import chess
import chess.engine


def parse_tc(text):
    base, _, inc = text.partition("+")
    try:
        return float(base), float(inc or 0)
    except ValueError:
        sys.exit(f"error: --tc {text}: expected BASE+INC in seconds, e.g. 10+0.1")


def opening(rng, plies):
    board = chess.Board()
    for _ in range(plies):
        moves = list(board.legal_moves)
        if not moves:
            break
        board.push(rng.choice(moves))
    return board


def play(engines, names, board, base, inc, margin, game):
    """Plays one game from `board`; returns (result for White, termination, plies)."""
    clock = {chess.WHITE: base, chess.BLACK: base}
    while not board.is_game_over(claim_draw=True):
        side = board.turn
        limit = chess.engine.Limit(white_clock=clock[chess.WHITE], black_clock=clock[chess.BLACK],
                                   white_inc=inc, black_inc=inc)
        started = time.monotonic()
        try:
            result = engines[side].play(board, limit, game=game)
        except (chess.engine.EngineError, chess.engine.EngineTerminatedError) as e:
            return ("0-1" if side == chess.WHITE else "1-0"), f"{names[side]} failed: {e}", board.ply()
        used = time.monotonic() - started
        clock[side] -= used
        if clock[side] < -margin:
            return ("0-1" if side == chess.WHITE else "1-0"), f"{names[side]} lost on time", board.ply()
        clock[side] += inc
        if result.move is None or result.move not in board.legal_moves:
            return ("0-1" if side == chess.WHITE else "1-0"), f"{names[side]} illegal move {result.move}", board.ply()
        board.push(result.move)
    outcome = board.outcome(claim_draw=True)
    return outcome.result(), outcome.termination.name.lower(), board.ply()


def elo(score):
    return -400 * math.log10(1 / score - 1)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--stackchess", required=True, help="the stackchess binary")
    ap.add_argument("--stockfish", default="stockfish", help="the Stockfish binary")
    ap.add_argument("--elo", type=int, default=1350, help="Stockfish's UCI_Elo")
    ap.add_argument("--tc", default="10+0.1", help="BASE+INC in seconds")
    ap.add_argument("--margin", type=float, default=0.1, help="seconds a clock may overrun")
    ap.add_argument("--games", type=int, default=40, help="games (even: openings are paired)")
    ap.add_argument("--opening-plies", type=int, default=4)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    if a.games <= 0 or a.games % 2:
        sys.exit(f"error: --games {a.games}: give an even number above 0")
    base, inc = parse_tc(a.tc)
    rng = random.Random(a.seed)
    ours = chess.engine.SimpleEngine.popen_uci([a.stackchess, "engine", "--variant", "fide"])
    sf = chess.engine.SimpleEngine.popen_uci(a.stockfish)
    sf.configure({"UCI_LimitStrength": True, "UCI_Elo": a.elo, "Threads": 1, "Hash": 16})
    ours.configure({"Threads": 1, "Hash": 16})
    sf_name = f"Stockfish ({sf.id.get('name', '?')}, UCI_Elo {a.elo})"
    wins = draws = losses = 0
    try:
        for g in range(a.games):
            if g % 2 == 0:
                start = opening(rng, a.opening_plies)
            ours_white = g % 2 == 0
            engines = {chess.WHITE: ours if ours_white else sf, chess.BLACK: sf if ours_white else ours}
            names = {chess.WHITE: "stackchess" if ours_white else sf_name,
                     chess.BLACK: sf_name if ours_white else "stackchess"}
            result, how, plies = play(engines, names, start.copy(), base, inc, a.margin, game=g)
            mine = {"1-0": 1.0, "0-1": 0.0}.get(result, 0.5)
            if not ours_white:
                mine = 1.0 - mine
            wins += mine == 1.0
            draws += mine == 0.5
            losses += mine == 0.0
            print(f"game {g + 1}: {names[chess.WHITE]} - {names[chess.BLACK]} {result} ({how}, {plies} plies, "
                  f"opening {' '.join(m.uci() for m in start.move_stack)})", flush=True)
    finally:
        ours.quit()
        sf.quit()
    n = wins + draws + losses
    score = (wins + draws / 2) / n
    var = (wins * (1 - score) ** 2 + draws * (0.5 - score) ** 2 + losses * score ** 2) / n
    half = 1.96 * math.sqrt(var / n)
    lo, hi = max(score - half, 1e-9), min(score + half, 1 - 1e-9)
    print(f"stackchess vs {sf_name} at {a.tc}: +{wins} ={draws} -{losses} of {n}, score {score:.3f}")
    if 0 < score < 1:
        print(f"Elo difference {elo(score):+.0f} [{elo(lo):+.0f}, {elo(hi):+.0f}] (95%)")
    else:
        print("Elo difference: unbounded (every game won or lost): try another --elo")


if __name__ == "__main__":
    main()
