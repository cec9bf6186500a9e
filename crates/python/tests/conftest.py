"""Fixtures: the stackchess command-line binary the checks compare against, and small runs."""

import os
import pathlib
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[3]
BUILTINS = ["malka", "traditional", "fide", "air-attack"]


@pytest.fixture(scope="session")
def cli():
    """The `stackchess` binary: $STACKCHESS_BIN (which must exist), else the workspace's debug build
    (the one `cargo test --workspace` builds); the cross-checks are skipped without either."""
    given = os.environ.get("STACKCHESS_BIN")
    if given:
        path = pathlib.Path(given)
        assert path.is_file(), f"STACKCHESS_BIN={given} is not a file"
        return str(path)
    path = ROOT / "target" / "debug" / "stackchess"
    if not path.is_file():
        pytest.skip("no stackchess binary: set STACKCHESS_BIN or run `cargo build -p stackchess`")
    return str(path)


def run_cli(cli, *args, check=True):
    """Runs the binary; returns the completed process (stdout and stderr as text)."""
    done = subprocess.run([cli, *args], capture_output=True, text=True, timeout=600)
    if check:
        assert done.returncode == 0, f"{args}: {done.stderr}"
    return done


@pytest.fixture(scope="session", params=["malka", "fide"])
def run_dir(request, cli, tmp_path_factory):
    """A small self-play run of each of two variants, written by `stackchess selfplay`."""
    out = tmp_path_factory.mktemp("run") / request.param
    run_cli(
        cli, "selfplay", "--variant", request.param, "--games", "6", "--nodes", "300", "--max-plies", "400",
        "--threads", "2", "--seed", "3", "--quiet", "--out", str(out),
    )
    return request.param, out
