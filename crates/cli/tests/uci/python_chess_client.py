#!/usr/bin/env python3
"""Drives `stackchess engine --variant fide` with python-chess, the reference UCI client.

Usage: python_chess_client.py PATH/TO/stackchess

Checks what engine testers and GUIs do: identify the engine, analyse to a depth, play a game on a
clock, run an infinite analysis and stop it, MultiPV, a mate search, searchmoves, Threads, and
pings between commands. python-chess logs a warning for every line it did not expect (a
`readyok` out of order, a `bestmove` while not searching): any such warning fails the run.
Exit status 0 when every check passes.
"""

import logging
import signal
import sys
import time

import chess
import chess.engine


# A check that takes longer has hung (each takes a few seconds on a debug build).
CHECK_SECONDS = 120


class Collect(logging.Handler):
    """Keeps the warnings and errors python-chess logs about the engine's output."""

    def __init__(self):
        super().__init__(logging.WARNING)
        self.records = []

    def emit(self, record):
        self.records.append(self.format(record))


def legal_line(board, moves):
    """Whether `moves` can be played one after the other from `board`."""
    b = board.copy()
    for m in moves:
        if m not in b.legal_moves:
            return False
        b.push(m)
    return True


def check(condition, message):
    if not condition:
        raise AssertionError(message)


def identity(engine):
    check(engine.id.get("name", "").startswith("stackchess "), f"id name: {engine.id}")
    check(engine.id.get("author") == "stackchess developers", f"id author: {engine.id}")
    for name in ["Hash", "Threads", "MultiPV", "Ponder", "Move Overhead", "Variant"]:
        check(name in engine.options, f"no option {name}: {list(engine.options)}")
    threads = engine.options["Threads"]
    check(threads.type == "spin" and threads.min == 1 and threads.default == 1, f"Threads: {threads}")
    return f"id name {engine.id['name']}; Threads {threads.min}..{threads.max}"


def analyse(engine):
    board = chess.Board()
    for san in ["e4", "e5", "Nf3", "Nc6", "Bb5"]:
        board.push_san(san)
    info = engine.analyse(board, chess.engine.Limit(depth=6))
    check(info.get("depth") == 6, f"depth: {info}")
    check("score" in info and info["score"].relative is not None, f"score: {info}")
    pv = info.get("pv", [])
    check(len(pv) >= 1 and legal_line(board, pv), f"pv: {pv}")
    return f"depth 6 score {info['score'].relative} pv {' '.join(m.uci() for m in pv[:4])}"


def play_on_a_clock(engine):
    """A real game, both sides by the engine, on 5 s + 0.05 s clocks kept by the client."""
    board = chess.Board()
    clock = {chess.WHITE: 5.0, chess.BLACK: 5.0}
    inc = 0.05
    game = object()
    slowest = 0.0
    for _ in range(24):
        if board.is_game_over():
            break
        limit = chess.engine.Limit(
            white_clock=clock[chess.WHITE], black_clock=clock[chess.BLACK], white_inc=inc, black_inc=inc
        )
        started = time.perf_counter()
        result = engine.play(board, limit, game=game)
        used = time.perf_counter() - started
        slowest = max(slowest, used)
        check(result.move in board.legal_moves, f"illegal move {result.move} in {board.fen()}")
        check(used < clock[board.turn], f"lost on time: {used:.3f} s of {clock[board.turn]:.3f} s")
        clock[board.turn] += inc - used
        board.push(result.move)
    # A nearly flagged clock and the last move before a time control.
    for limit in [
        chess.engine.Limit(white_clock=0.5, black_clock=0.5),
        chess.engine.Limit(white_clock=1.0, black_clock=1.0, remaining_moves=1),
    ]:
        started = time.perf_counter()
        result = engine.play(board, limit, game=game)
        used = time.perf_counter() - started
        remaining = limit.white_clock if board.turn == chess.WHITE else limit.black_clock
        check(result.move in board.legal_moves, f"illegal move {result.move}")
        check(used < remaining, f"lost on time: {used:.3f} s of {remaining} s")
    return f"{len(board.move_stack)} plies, slowest move {slowest * 1000:.0f} ms"


def finished_early(analysis):
    """Whether the engine has already sent `bestmove` (draining the infos received)."""
    while not analysis.would_block():
        if analysis.next() is None:
            return True
    return False


def infinite(engine):
    board = chess.Board()
    with engine.analysis(board) as analysis:
        depth = 0
        for info in analysis:
            depth = max(depth, info.get("depth", 0))
            if depth >= 5:
                break
        analysis.stop()
        best = analysis.wait()
    check(best.move in board.legal_moves, f"bestmove {best}")
    # Mate in one is found at once; the search must still wait for `stop` before `bestmove`.
    board = chess.Board("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1")
    with engine.analysis(board) as analysis:
        time.sleep(0.5)
        check(not finished_early(analysis), "bestmove before stop in go infinite")
        analysis.stop()
        best = analysis.wait()
    check(best.move == chess.Move.from_uci("d1d8"), f"bestmove {best}")
    return f"stopped at depth {depth}; waited for stop after a mate was found"


def multipv(engine):
    board = chess.Board("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")
    infos = engine.analyse(board, chess.engine.Limit(depth=6), multipv=3)
    check(len(infos) == 3, f"{len(infos)} lines")
    check([i.get("multipv") for i in infos] == [1, 2, 3], f"multipv: {[i.get('multipv') for i in infos]}")
    firsts = [i["pv"][0] for i in infos]
    check(len(set(firsts)) == 3, f"lines not distinct: {firsts}")
    check(all(legal_line(board, i["pv"]) for i in infos), "illegal pv")
    scores = [i["score"].relative for i in infos]
    check(scores[0] >= scores[1] >= scores[2], f"not best first: {scores}")
    return " | ".join(f"{i['pv'][0].uci()} {i['score'].relative}" for i in infos)


def mate(engine):
    board = chess.Board("8/k7/7R/8/8/8/K2R4/8 w - - 0 1")
    info = engine.analyse(board, chess.engine.Limit(mate=2))
    check(info["score"].relative.mate() == 2, f"score {info['score']}")
    # No mate in one from the start: the search ends by itself with a normal score.
    info = engine.analyse(chess.Board(), chess.engine.Limit(mate=1))
    check(info["score"].relative.mate() is None, f"score {info['score']}")
    return "mate 2 found; no mate 1 from the start position"


def searchmoves(engine):
    board = chess.Board()
    allowed = [chess.Move.from_uci("a2a3"), chess.Move.from_uci("h2h4")]
    info = engine.analyse(board, chess.engine.Limit(depth=5), root_moves=allowed)
    check(info["pv"][0] in allowed, f"pv {info['pv']}")
    result = engine.play(board, chess.engine.Limit(depth=4), root_moves=allowed)
    check(result.move in allowed, f"played {result.move}")
    return f"searched {info['pv'][0].uci()}, played {result.move.uci()}"


def threads(engine):
    top = engine.options["Threads"].max
    if top == 1:
        return "Threads is 1 only"
    engine.configure({"Threads": 2})
    board = chess.Board("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
    info = engine.analyse(board, chess.engine.Limit(depth=7))
    check(info.get("depth") == 7 and legal_line(board, info["pv"]), f"{info}")
    engine.configure({"Threads": 1})
    return f"2 threads: depth 7 in {info.get('time', 0):.2f} s, {info.get('nodes')} nodes"


def pings(engine):
    for _ in range(5):
        engine.ping()
    engine.configure({"Hash": 8})
    engine.ping()
    return "readyok in order"


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    collected = Collect()
    logging.getLogger("chess.engine").addHandler(collected)
    engine = chess.engine.SimpleEngine.popen_uci([sys.argv[1], "engine", "--variant", "fide"], timeout=60)
    failures = 0

    def hung(signum, frame):
        raise TimeoutError(f"no answer within {CHECK_SECONDS} s")

    signal.signal(signal.SIGALRM, hung)
    try:
        for test in [identity, analyse, play_on_a_clock, infinite, multipv, mate, searchmoves, threads, pings]:
            signal.alarm(CHECK_SECONDS)
            try:
                print(f"ok   {test.__name__}: {test(engine)}", flush=True)
            except Exception as e:  # report every check, then fail
                failures += 1
                print(f"FAIL {test.__name__}: {type(e).__name__}: {e}", flush=True)
            finally:
                signal.alarm(0)
    finally:
        engine.close() if failures else engine.quit()
    for record in collected.records:
        failures += 1
        print(f"FAIL unexpected engine output: {record}")
    print("python-chess client: " + ("all checks passed" if failures == 0 else f"{failures} failure(s)"))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
