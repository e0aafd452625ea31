"""`python -m minixla.tools.tf_coverage`: counts against the recorded TF 2.21 API."""

from __future__ import annotations

from minixla.frontend import tf
from minixla.frontend.ops.registry import REGISTRY
from minixla.tools import tf_coverage


def test_counts_are_consistent_with_the_registry_and_namespaces(tmp_path):
    xla, everything = tf_coverage.raw_op_coverage()
    assert xla.total == 489 and everything.total == 1462
    assert set(xla.covered) <= set(REGISTRY) and not set(xla.missing) & {n for n, d in REGISTRY.items()
                                                                           if d.compilable and d.xla_kernel is True}
    spaces = {c.name: c for c in tf_coverage.namespace_coverage()}
    assert "reduce_sum" in spaces["tf.math"].covered and hasattr(tf.math, "reduce_sum")
    assert all(not hasattr(tf.math, n) for n in spaces["tf.math"].missing)
    out = tmp_path / "cov.md"
    assert tf_coverage.main(["-o", str(out)]) == 0
    text = out.read_text()
    assert "| raw ops with an XLA kernel |" in text and "| tf.math |" in text
