"""Python source read as a syntax tree, safely beside other threads that parse too.

CPython 3.11 before 3.11.8 counts the AST constructor's recursion depth in one counter for the whole
interpreter, not one per parse (gh-106905). Building a tree allocates thousands of objects; a garbage collection
among them may run a finalizer, the finalizer may hand the GIL to another thread, and if that thread parses too,
the counter no longer balances and ``ast.parse`` raises ``SystemError: AST constructor recursion depth mismatch``.
Threads parse more often than it seems: the traceback module parses each frame's line to place its carets, so a
fake server's thread that prints an error, or a thread that logs one, does. With the collector paused while the
tree is built, no Python code runs in the middle of a parse, so no other thread can either.
"""

from __future__ import annotations

import ast
import gc
from pathlib import Path


def parse(source: str | Path) -> ast.Module:
    """The syntax tree of ``source`` (text, or a file read as UTF-8), built with the garbage collector paused."""
    text = source.read_text(encoding="utf-8") if isinstance(source, Path) else source
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        return ast.parse(text)
    finally:
        if was_enabled:
            gc.enable()
