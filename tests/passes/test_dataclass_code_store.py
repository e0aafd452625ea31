"""minixla/_importing.py's store of dataclass method code: what one process compiled, the next reads
back (the same code, classes that behave the same); an unreadable or foreign file is ignored and
replaced; nothing is written under PYTHONDONTWRITEBYTECODE."""

from __future__ import annotations

import dataclasses
import uuid

import pytest

from minixla import _importing
from minixla.passes.gc_pause import importing


@pytest.fixture
def store(tmp_path, monkeypatch):
    """A private store file and a fresh per-process table (both restored afterwards)."""
    path = tmp_path / "__pycache__" / "dataclass_code.test.bin"
    monkeypatch.setattr(_importing, "_store_path", lambda: str(path))
    monkeypatch.setattr(_importing, "_codes", {})
    monkeypatch.setattr(_importing, "_stored", None)
    monkeypatch.setattr(_importing, "_new", 0)
    monkeypatch.setattr(_importing.sys, "dont_write_bytecode", False)
    monkeypatch.setattr("atexit.register", lambda fn: None)  # (the test saves explicitly)
    return path


def _make(field: str):
    with importing():
        return dataclasses.make_dataclass("P", [(field, int), ("y", int, dataclasses.field(default=2))], frozen=True)


def _forget(monkeypatch):
    """As a new process: nothing compiled yet, the store not read."""
    monkeypatch.setattr(_importing, "_codes", {})
    monkeypatch.setattr(_importing, "_stored", None)
    monkeypatch.setattr(_importing, "_new", 0)


def _behaves(cls, field: str) -> None:
    p = cls(1)
    assert repr(p) == f"P({field}=1, y=2)" and p == cls(1, 2) and hash(p) == hash(cls(1, 2))
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(p, field, 3)


def test_a_later_process_reads_back_what_one_compiled(store, monkeypatch):
    field = f"f_{uuid.uuid4().hex}"
    first = _make(field)
    assert _importing._new > 0
    _importing._save_stored()
    assert store.exists() and _importing._new == 0
    _forget(monkeypatch)

    def no_compile(*args, **kwargs):
        raise AssertionError("compiled although stored")

    monkeypatch.setattr(_importing, "compile", no_compile, raising=False)
    second = _make(field)
    assert _importing._new == 0
    assert second.__init__.__code__.co_code == first.__init__.__code__.co_code
    assert second.__init__.__code__.co_consts == first.__init__.__code__.co_consts
    _behaves(first, field)
    _behaves(second, field)


def test_a_new_text_is_added_to_what_is_stored(store, monkeypatch):
    one, two = f"f_{uuid.uuid4().hex}", f"f_{uuid.uuid4().hex}"
    _make(one)
    _importing._save_stored()
    _forget(monkeypatch)
    _make(two)
    _importing._save_stored()
    stored = _importing._load_stored()
    assert any(one in text for text in stored) and any(two in text for text in stored)


@pytest.mark.parametrize("content", [b"", b"garbage", b"minixla-dataclass-code\n\x00\x00\r\n{"])
def test_an_unreadable_or_foreign_file_is_ignored_and_replaced(store, monkeypatch, content):
    store.parent.mkdir(parents=True)
    store.write_bytes(content)
    field = f"f_{uuid.uuid4().hex}"
    _behaves(_make(field), field)
    _importing._save_stored()
    _forget(monkeypatch)
    assert any(field in text for text in _importing._load_stored())


def test_nothing_is_written_without_bytecode_writing(store, monkeypatch):
    monkeypatch.setattr(_importing.sys, "dont_write_bytecode", True)
    field = f"f_{uuid.uuid4().hex}"
    _behaves(_make(field), field)
    _importing._save_stored()
    assert not store.exists()


def test_the_store_lies_where_this_module_keeps_its_bytecode(monkeypatch, tmp_path):
    import importlib.util

    own_pyc = importlib.util.cache_from_source(_importing.__file__)
    assert _importing._store_path().startswith(own_pyc.rpartition("_importing.")[0])
    monkeypatch.setattr(_importing.sys, "pycache_prefix", str(tmp_path))
    own_pyc = importlib.util.cache_from_source(_importing.__file__)
    assert own_pyc.startswith(str(tmp_path))
    assert _importing._store_path().startswith(own_pyc.rpartition("_importing.")[0])
