"""`passes.pipeline.parse_spec` builds the same passes as xDSL's `PassPipeline.parse_spec` (its
argument-less fast path skips `get_type_hints`), and fails the same way."""

from __future__ import annotations

import pytest
from xdsl.passes import PassPipeline
from xdsl.utils.exceptions import ArgSpecParseError

from minixla.passes import available_passes
from minixla.passes.pipeline import _from_spec, build_pipeline, expand_spec, parse_spec, get_all_passes

#: xDSL's own passes that our pipelines run, and a few with required or optional arguments
UPSTREAM = ("cse", "dce", "canonicalize", "mlir-opt", "constant-fold-interp", "apply-individual-rewrite",
            "convert-linalg-to-loops", "loop-hoist-memref")


def _outcome(build):
    try:
        return "ok", build()
    except (ValueError, TypeError) as err:
        return "error", f"{type(err).__name__}: {err}"


@pytest.mark.parametrize("name", sorted(set(get_all_passes()) | set(UPSTREAM)))
def test_argumentless_spec_builds_what_xdsl_builds(name):
    from xdsl.utils.arg_spec import parse_pipeline

    available = available_passes()
    if name not in available:
        pytest.skip(f"{name} not in this xDSL")
    spec = next(iter(parse_pipeline(name)))
    cls = available[name]()
    ours, theirs = _outcome(lambda: _from_spec(cls, spec)), _outcome(lambda: cls.from_pass_spec(spec))
    assert ours == theirs
    if ours[0] == "ok":
        assert type(ours[1]) is type(theirs[1])


def test_pipelines_equal_to_xdsl():
    from minixla.backends.cpu.blas import cpu_pipeline

    available = available_passes()
    for spec in (expand_spec("hlo-optimize"), cpu_pipeline(), "cse,dce",
                 "lower-linalg-to-loops{collapse=true},dce"):
        ours = parse_spec(available, spec)
        assert ours.passes == PassPipeline.parse_spec(available, spec).passes
        assert [p.name for p in ours.passes] == [s.strip().partition("{")[0] for s in spec.split(",")]


def test_errors():
    with pytest.raises(ValueError, match=r"Unrecognized passes: \['no-such-pass'\]"):
        build_pipeline("cse,no-such-pass")
    with pytest.raises(ValueError, match="not found in expected"):
        build_pipeline("cse{bogus=1}")
    with pytest.raises(ArgSpecParseError):
        parse_spec(available_passes(), "cse{")
