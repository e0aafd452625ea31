"""dialects/plugins.py: one entry-point scan per process, serving every group in importlib's order."""

from __future__ import annotations

import importlib.metadata

from minixla.dialects import plugins


def test_groups_match_importlib_and_share_one_scan(monkeypatch):
    groups = ("xdsl.universe", "minixla.passes", "minixla.dialects", "console_scripts")
    expected = {g: list(importlib.metadata.entry_points(group=g)) for g in groups}
    scans = []
    real = importlib.metadata.entry_points

    def counting(**params):
        scans.append(params)
        return real(**params)

    plugins.forget()
    monkeypatch.setattr(importlib.metadata, "entry_points", counting)
    try:
        for g in groups:
            assert plugins.entry_points_of(g) == expected[g]
        assert len(scans) == 1 and scans[0] == {}
        assert any(ep.name == "minixla" for ep in plugins.entry_points_of("xdsl.universe"))
    finally:
        plugins.forget()
