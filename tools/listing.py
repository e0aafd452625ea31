"""What `minixla-opt --list-passes` / `--list-dialects` print: every pass and named pipeline,
every dialect, each with where it comes from (minixla, a plugin distribution, xDSL)."""

from __future__ import annotations

from xdsl.context import Context


def _summary(doc: str | None) -> str:
    return (doc or "").strip().splitlines()[0] if (doc or "").strip() else ""


def list_passes() -> str:
    from xdsl.transforms import get_all_passes as upstream

    from minixla.passes import get_all_passes
    from minixla.passes.pipeline import PIPELINES, PLUGIN_PASSES

    ours = get_all_passes()
    lines = ["minixla passes:"]
    for name in sorted(n for n in ours if n not in PLUGIN_PASSES):
        lines.append(f"  {name:36} {_describe(ours[name])}")
    lines.append("named pipelines:")
    lines += [f"  {name}" for name in sorted(PIPELINES)]
    lines.append("plugin passes:")
    lines += [f"  {name:36} [{PLUGIN_PASSES[name]}] {_describe(ours[name])}" for name in sorted(PLUGIN_PASSES)] or [
        "  (none installed; see docs/plugins.md)"]
    lines.append("xDSL passes:")
    lines.append("  " + ", ".join(sorted(n for n in upstream() if n not in ours)))
    return "\n".join(lines)


def _describe(factory) -> str:
    try:
        return _summary(factory().__doc__)
    except Exception as err:  # noqa: BLE001 -- a listing shows a broken plugin instead of failing
        return f"(cannot load: {err})"


def list_dialects(ctx: Context) -> str:
    from minixla.dialects import plugin_dialects

    plugins = plugin_dialects()
    ours = {"hlo", "stablehlo", "check", "interpreter", "tf", "tf_type", "nvvm"}
    names = sorted(set(ctx.registered_dialect_names))
    lines = ["minixla dialects:"] + [f"  {n}" for n in names if n in ours]
    lines += ["plugin dialects:"] + ([f"  {n}" for n in sorted(plugins)] or ["  (none installed; see docs/plugins.md)"])
    lines += ["xDSL dialects:", "  " + ", ".join(n for n in names if n not in ours and n not in plugins)]
    return "\n".join(lines)
