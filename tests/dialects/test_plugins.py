"""dialects/plugins.py: one entry-point scan per process, serving every group in importlib's order,
without importing importlib.metadata (the oracle here)."""

from __future__ import annotations

import importlib.metadata
import os
import subprocess
import sys
from pathlib import Path

from minixla.dialects import plugins

ROOT = Path(__file__).resolve().parents[2]


def _theirs():
    eps = importlib.metadata.entry_points()
    return {g: list(eps.select(group=g)) for g in eps.groups}


def test_every_group_matches_importlib_with_the_same_distributions_and_one_scan(monkeypatch):
    expected = _theirs()
    assert {"xdsl.universe", "console_scripts"} <= set(expected)
    scans = []
    real = plugins._scan

    def counting():
        scans.append(1)
        return real()

    plugins.forget()
    monkeypatch.setattr(plugins, "_scan", counting)
    try:
        for group, eps in expected.items():
            mine = plugins.entry_points_of(group)
            assert mine == eps, group
            assert [(e.name, e.value, e.group, e.dist.name) for e in mine] == \
                [(e.name, e.value, e.group, e.dist.name) for e in eps], group
        assert plugins.entry_points_of("no.such.group") == []
        assert len(scans) == 1
        assert any(ep.name == "minixla" for ep in plugins.entry_points_of("xdsl.universe"))
    finally:
        plugins.forget()


def test_entry_points_load_what_importlib_loads():
    for group in ("xdsl.universe", "minixla.passes", "minixla.dialects"):
        theirs = {e.name: e for e in importlib.metadata.entry_points(group=group)}
        for ep in plugins.entry_points_of(group):
            assert ep.load() is theirs[ep.name].load()
            assert (ep.module, ep.attr) == (theirs[ep.name].module, theirs[ep.name].attr)


def test_an_unusual_path_falls_back_to_importlib(monkeypatch, tmp_path):
    (tmp_path / "lib.zip").write_bytes(b"")  # a file on sys.path: importlib would read it as a zip
    monkeypatch.setattr(sys, "path", [*sys.path, str(tmp_path / "lib.zip")])
    calls = []
    real = importlib.metadata.entry_points
    monkeypatch.setattr(importlib.metadata, "entry_points", lambda **kw: calls.append(kw) or real(**kw))
    plugins.forget()
    try:
        got = {(e.group, e.name, e.value) for e in plugins.entry_points_of("console_scripts")}
        assert calls and got == {(e.group, e.name, e.value) for e in real(group="console_scripts")}
    finally:
        plugins.forget()


def test_a_distribution_is_read_once_and_comments_are_skipped(tmp_path, monkeypatch):
    for folder, text in (("a", "[minixla.passes]\n# a comment\nx-pass = pkg.mod:Cls [extra]\n"),
                         ("b", "[minixla.passes]\nx-pass = other:Shadowed\n")):
        info = tmp_path / folder / "my_plugin-1.0.dist-info"
        info.mkdir(parents=True)
        (info / "entry_points.txt").write_text(text)
        (info / "METADATA").write_text("Metadata-Version: 2.1\nName: my-plugin\nVersion: 1.0\n\nbody\n")
    monkeypatch.setattr(sys, "path", [str(tmp_path / "a"), str(tmp_path / "b"), *sys.path])
    plugins.forget()
    try:
        (ep,) = [e for e in plugins.entry_points_of("minixla.passes") if e.name == "x-pass"]
        assert (ep.value, ep.module, ep.attr, ep.dist.name) == ("pkg.mod:Cls [extra]", "pkg.mod", "Cls", "my-plugin")
        assert ep == next(e for e in importlib.metadata.entry_points(group="minixla.passes") if e.name == "x-pass")
    finally:
        plugins.forget()


def test_a_compile_reads_plugins_without_importing_importlib_metadata():
    code = ("import sys\nfrom minixla.dialects import load_all\nfrom minixla.passes import get_all_passes\n"
            "ctx = load_all(); passes = get_all_passes()\n"
            "print('toy' in ctx.registered_dialect_names, 'convert-toy-to-hlo' in passes,"
            " 'importlib.metadata' in sys.modules)\n")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=dict(os.environ, PYTHONPATH=str(ROOT)),
                         capture_output=True, text=True, check=True).stdout.split()
    toy = any(e.name == "toy" for e in importlib.metadata.entry_points(group="minixla.dialects"))
    assert out == [str(toy), str(toy), "False"]
