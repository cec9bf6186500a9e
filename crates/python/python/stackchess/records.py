"""The records of a run directory (docs/records.md) as DataFrames, and games replayed."""

from __future__ import annotations

import os
from typing import Any, Iterator, Mapping, NamedTuple, Optional, Union

from ._stackchess import Board, RuleSet, _read_run


class Run(NamedTuple):
    """A run directory's records: ``games`` (one row per game, the columns of ``games.csv``) and
    ``plies`` (one row per searched ply, the columns of ``plies.csv``; ``None`` for a version-1
    run, which has no per-ply table), as polars or pandas DataFrames or lists of dicts; and the
    schema ``version`` of ``games.csv`` (1 or 2)."""

    games: Any
    plies: Any
    version: int


def _polars_frame(table: Mapping[str, Any]) -> Any:
    import polars as pl

    types = {"text": pl.String, "uint": pl.UInt64, "int": pl.Int64, "optint": pl.Int64}
    return pl.DataFrame(
        [pl.Series(name, table["data"][name], dtype=types[kind], strict=True) for name, kind in table["columns"]]
    )


def _pandas_frame(table: Mapping[str, Any]) -> Any:
    import pandas as pd

    types = {"text": None, "uint": "uint64", "int": "int64", "optint": "Int64"}
    return pd.DataFrame(
        {name: pd.Series(table["data"][name], dtype=types[kind]) for name, kind in table["columns"]}
    )


def _dicts(table: Mapping[str, Any]) -> list:
    names = [name for name, _ in table["columns"]]
    columns = [table["data"][n] for n in names]
    return [dict(zip(names, row)) for row in zip(*columns)]


def _builder(frame: str) -> Any:
    if frame == "auto":
        for name in ("polars", "pandas"):
            try:
                __import__(name)
            except ImportError:
                continue
            return _builder(name)
        return _dicts
    builders = {"polars": _polars_frame, "pandas": _pandas_frame, "dicts": _dicts}
    if frame not in builders:
        raise ValueError(f"frame must be 'auto', 'polars', 'pandas' or 'dicts', not {frame!r}")
    return builders[frame]


def read_run(directory: Union[str, "os.PathLike[str]"], frame: str = "auto") -> Run:
    """Reads a run directory written by ``stackchess selfplay`` or ``match``: its ``games.csv``
    and, for a version-2 run, its ``plies.csv``, with the records' own reader (strict: a bad
    record raises ``ValueError`` naming the file and line; a missing directory or ``games.csv``
    raises ``FileNotFoundError``).

    The tables have the columns and types of docs/records.md, in the files' order: text columns
    as strings, ``seed`` unsigned 64-bit, the other numbers signed 64-bit, and ``score_cp``,
    ``mate`` and ``clock_ms`` nullable. ``frame`` chooses what they are: ``"polars"`` or
    ``"pandas"`` DataFrames, ``"dicts"`` (a list of one dict per row), or ``"auto"`` (the
    default): polars if it is installed, else pandas, else lists of dicts.
    """
    raw = _read_run(os.fspath(directory))
    build = _builder(frame)
    plies = raw["plies"]
    return Run(build(raw["games"]), None if plies is None else build(plies), raw["version"])


def _field(game: Any, name: str, default: Any = None) -> Any:
    try:
        value = game[name]
    except (KeyError, IndexError):
        return default
    return default if value is None else value


def replay(game: Any, rules: Optional[Union[RuleSet, str]] = None) -> Iterator[Board]:
    """Replays one game of the records: yields the board at the game's start (``start_lfen``,
    after any opening plies) and then after each of its ``moves``, ``plies + 1`` boards in all,
    each a separate ``Board`` with the moves since the start (so board ``k`` is the position
    before ply ``k + 1``, the ``ply`` column of ``plies``).

    ``game`` is one row of ``read_run(...).games``: a dict (polars' ``games.row(i,
    named=True)`` or ``games.iter_rows(named=True)``, the ``"dicts"`` frame) or a pandas row
    (``games.iloc[i]``). ``rules`` is the rule set, by default the one the row's ``variant``
    names: a built-in, or a rule set loaded in this process (``RuleSet.from_file``) for a run of
    a rule file. Raises ``ValueError`` when the row's ``rules_id`` is not the rule set's id, or for
    a move that is not legal (naming the game and the ply).
    """
    variant = _field(game, "variant")
    game_id = _field(game, "game_id", "?")
    if rules is None:
        if variant is None:
            raise ValueError("the game has no 'variant' column: pass rules=")
        rules = RuleSet.named(variant)
    elif isinstance(rules, str):
        rules = Board(rules).rules
    rules_id = _field(game, "rules_id", "")
    if rules_id and rules_id != rules.id:
        raise ValueError(f"game {game_id} was played under rules {rules_id}; {rules.name} has id {rules.id}")
    board = Board(rules, _field(game, "start_lfen"))
    yield board.copy()
    for ply, text in enumerate(str(_field(game, "moves", "")).split(), start=1):
        try:
            board.push(text)
        except ValueError as e:
            raise ValueError(f"game {game_id}: ply {ply}: {e}") from None
        yield board.copy()
