"""Bounds-checking mode for generated CPU code (MINIXLA_CHECK_BOUNDS=1)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager

ENV = "MINIXLA_CHECK_BOUNDS"


def enabled() -> bool:
    return os.environ.get(ENV, "") not in ("", "0")


@contextmanager
def checking_bounds(on: bool = True) -> Iterator[None]:
    """Compile (and run) with bounds checks inside the block."""
    saved = os.environ.get(ENV)
    os.environ[ENV] = "1" if on else "0"
    try:
        yield
    finally:
        if saved is None:
            del os.environ[ENV]
        else:
            os.environ[ENV] = saved
