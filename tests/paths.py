"""Where the tests find things: the repository root, and `../shared` beside it
(the read-only reference material a user's clone does not have)."""

from __future__ import annotations

from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[1]
SHARED = REPO_ROOT.parent / "shared"
GOLDEN_DIR = REPO_ROOT / "tests" / "golden"


def shared_path(relative: str) -> Path:
    """`../shared/<relative>`, or skip the calling test with the reason when it is absent."""
    path = SHARED / relative
    if not path.exists():
        pytest.skip(f"needs ../shared/{relative} (the reference material beside the repository; "
                    f"a plain clone does not have it)")
    return path
