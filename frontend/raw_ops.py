"""`tf.raw_ops`: every TensorFlow 2.21 raw op by its name, called with keywords as in TF.

An op that minixla's registry implements runs through `execute` (eagerly, traced into
the `tf` dialect, compiled under `jit_compile=True`); its TF OpDef
(frontend/tf_api_2_21.json, recorded from real TF) gives the argument names and
defaults, so `tf.raw_ops.MatMul(a=x, b=y, transpose_b=True)` reads as in TF. An op
that minixla lacks raises `UnimplementedError` naming it, and says whether XLA can
compile it (a gap of ours) or not (strings, I/O, resources: XLA cannot either).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import cache
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from minixla.frontend.errors import UnimplementedError
from minixla.frontend.execute import execute
from minixla.frontend.ops.registry import REGISTRY

API_FILE = Path(__file__).with_name("tf_api_2_21.json")

#: TF attributes that the registry infers from the inputs (types and list lengths)
_INFERRED = {"T", "N", "Tidx", "Tshape", "Tpaddings", "Tperm", "Tindices", "Tparams", "Taxis", "Tmultiples",
             "Tblock_shape", "Tcrops", "DstT", "SrcT", "Tout", "Tin", "Index", "Targmax", "Tsegmentids",
             "Tnumsegments", "TI", "Tcomplex", "Tlen", "Tsplits", "Tcond", "Tseed", "Tindex", "Tlabels"}


@cache
def tf_api() -> dict:
    """The recorded TF 2.21 API surface (namespaces, raw ops, XLA-compilable ops, OpDefs)."""
    return json.loads(API_FILE.read_text())


def _parse_default(text: str | None) -> Any:
    """An AttrValue in text form (`b: false`, `i: 1`, `f: 0.5`, `s: "SAME"`, `list { i: 1 }`) as Python."""
    if text is None:
        return None
    kind, _, value = text.partition(":")
    value = value.strip()
    if kind == "b":
        return value == "true"
    if kind == "i":
        return int(value)
    if kind == "f":
        return float(value)
    if kind == "s":
        return value.strip('"')
    return text


#: raw ops on resource handles and variants (variables, TensorArray, TensorList, Stack): called with the
#: keywords; they unwrap the state, run the registered op on its tensors and write the result back
#: (frontend/api/raw_state*.py fill this). Also the raw ops whose TF arguments do not map one to one onto
#: their registry op: function-valued attributes (a ConcreteFunction traced into a func.func), the stateful
#: random kernels (TF's per-kernel counter) and DynamicStitch's constant indices (frontend/api/raw_functional.py)
STATE_CALLS: dict[str, Callable] = {}


class RawOp:
    """One raw op: keyword-only call with TF's argument names."""

    def __init__(self, name: str):
        self.__name__ = self.__qualname__ = name
        opdef = tf_api()["op_defs"].get(name, {"inputs": [], "attrs": [], "outputs": []})
        # TF's Python keywords name the inputs (in OpDef order), sometimes differently (Sum: axis)
        python_args = opdef.get("python_args") or [n for n, _ in opdef["inputs"]]
        self.inputs = python_args[:len(opdef["inputs"])]
        self.attrs = {n: d for n, d in opdef["attrs"]}
        self.__doc__ = (f"tf.raw_ops.{name}({', '.join([*self.inputs, *(a for a in self.attrs if a not in _INFERRED)])}"
                        f", name=None)")

    def __repr__(self) -> str:
        return f"<tf.raw_ops.{self.__name__}>"

    def __call__(self, *args, **kwargs):
        name = self.__name__
        if args:
            raise TypeError(f"tf.raw_ops.{name} only takes keyword arguments (as TensorFlow's raw ops do), "
                            f"got {len(args)} positional")
        kwargs.pop("name", None)
        ours = REGISTRY.get(name)
        if ours is None:
            raise UnimplementedError(_missing_message(name))
        unknown = set(kwargs) - set(self.inputs) - set(self.attrs)
        if unknown:
            raise TypeError(f"tf.raw_ops.{name} got unexpected keyword arguments {sorted(unknown)}; "
                            f"it takes {', '.join([*self.inputs, *self.attrs])}")
        missing = [n for n in self.inputs if n not in kwargs]
        if missing:
            raise TypeError(f"tf.raw_ops.{name} is missing required arguments {missing}")
        if name in STATE_CALLS:  # resource / variant handles in, state updated
            return STATE_CALLS[name](**kwargs)
        inputs = [kwargs[n] for n in self.inputs]
        attrs = {}
        for attr, default in self.attrs.items():
            if attr in kwargs and attr in ours.attrs:
                attrs[attr] = kwargs[attr]
            elif attr in kwargs and attr not in _INFERRED and kwargs[attr] != _parse_default(default):
                raise UnimplementedError(f"tf.raw_ops.{name}: minixla does not implement attribute "
                                         f"{attr}={kwargs[attr]!r} (only its default {_parse_default(default)!r})")
        return execute(name, inputs, attrs)


def _missing_message(name: str) -> str:
    if name in tf_api()["xla_compilable"]:
        return (f"tf.raw_ops.{name} is not implemented in minixla yet (XLA can compile it; "
                "docs/tf-coverage.md lists what is missing)")
    return (f"tf.raw_ops.{name} is not implemented in minixla, and XLA cannot compile it either "
            "(TensorFlow has no XLA kernel for it: strings, I/O and resource ops run only outside compiled code)")


@cache
def raw_ops() -> SimpleNamespace:
    """The `tf.raw_ops` namespace: one RawOp per TF raw op name."""
    return SimpleNamespace(**{name: RawOp(name) for name in tf_api()["raw_ops"]})


def implemented(name: str) -> bool:
    return name in REGISTRY


__all__ = ["RawOp", "implemented", "raw_ops", "tf_api"]
