"""The type stubs name what the native module has, and every public name has a docstring."""

import ast
import inspect
import pathlib

import stackchess
from stackchess import _stackchess

STUB = pathlib.Path(_stackchess.__file__).with_name("_stackchess.pyi")


def stub_members():
    tree = ast.parse(STUB.read_text())
    out = {}
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            out[node.name] = {n.name for n in node.body if isinstance(n, ast.FunctionDef)}
        elif isinstance(node, ast.FunctionDef):
            out[node.name] = None
    return out


def test_the_stubs_match_the_native_module():
    stubs = stub_members()
    native = {n for n in dir(_stackchess) if not n.startswith("__")}
    assert set(stubs) == native
    for name, methods in stubs.items():
        if methods is None:
            continue
        cls = getattr(_stackchess, name)
        public = {n for n in dir(cls) if not n.startswith("_")}
        stubbed = {m for m in methods if not m.startswith("_")}
        assert stubbed == public, name


def test_public_names_are_documented():
    for name in stackchess.__all__:
        obj = getattr(stackchess, name)
        assert inspect.getdoc(obj), name
        if inspect.isclass(obj):
            for member, value in vars(obj).items():
                if not member.startswith("_"):
                    assert inspect.getdoc(value), f"{name}.{member}"
