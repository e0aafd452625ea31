"""Fixtures of the frontend tests."""

from __future__ import annotations

import pytest

from minixla.frontend import eager_fast_path as fast


@pytest.fixture
def taken(monkeypatch):
    """The functions the fast path ran (a list that grows with every fast op)."""
    calls = []
    real = fast.quiet

    def spy(fn, *args, **kwargs):
        calls.append(fn)
        return real(fn, *args, **kwargs)
    monkeypatch.setattr(fast, "quiet", spy)
    return calls
