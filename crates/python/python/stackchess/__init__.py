"""Chess on stacked boards: rule sets, boards, moves, the engine and the records of a run.

>>> from stackchess import RuleSet, Board, Engine
>>> board = Board(RuleSet.builtin("malka"))
>>> board.push("1e21e3")
Move('1e21e3')
>>> len(board.legal_moves()) > 0
True

See docs/python.md in the stackchess repository for a guide and a notebook-style example.
"""

from ._stackchess import Board, Engine, Line, Move, Outcome, RuleSet
from .records import Run, read_run, replay

__all__ = ["Board", "Engine", "Line", "Move", "Outcome", "RuleSet", "Run", "read_run", "replay"]
