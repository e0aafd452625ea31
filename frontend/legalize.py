"""The rules behind `tf-legalize-to-hlo` (passes/tf_legalize_to_hlo.py): the tf2xla bridge.

Each `"tf.X"` op is replaced, in program order, by the `hlo` ops its registry
rule emits through a `TracingBuilder` placed right before it. Must-be-constant
operands are resolved statically: from `tf.Const`/`hlo.constant`, or by
evaluating the constant-only `hlo` subgraph that computes them (tf2xla's
constant folding); anything else raises TF's compile-time-constant error.
Ops without a rule make the pass fail with TF's "Detected unsupported
operations" error.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from xdsl.dialects import func
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, ModuleOp
from xdsl.ir import BlockArgument, Operation, SSAValue
from xdsl.traits import Pure

from minixla.backends.interpreter import ops_elementwise, ops_shape  # noqa: F401  (register the folding impls)
from minixla.dialects.numpy_types import dense_attr_to_numpy
from minixla.backends.interpreter.op_table import OP_IMPLS

from minixla.frontend.builder_trace import TValue, TracingBuilder
from minixla.frontend.errors import InvalidArgumentError, SourceLocation, compile_time_constant_error
from minixla.frontend.ops.registry import REGISTRY, OpDef
from minixla.dialects.tf import from_attr
from minixla.passes.tf_legalize_to_hlo import register_tf_legalizer

_FOLD_LIMIT = 1 << 16

#: symbol tables of the modules being legalized (innermost last): where tf.If/tf.While find their bodies
MODULE_SCOPES: list[dict[str, Any]] = []


def symbol_name(ref) -> str:
    """A branch attribute (SymbolRefAttr, StringAttr or str) as a plain name."""
    if isinstance(ref, str):
        return ref.lstrip("@")
    root = getattr(ref, "root_reference", None)
    if root is not None:
        return root.data
    return str(getattr(ref, "data", ref)).lstrip("@")


class NotConstant(Exception):
    pass


def _fold(value: SSAValue, depth: int = 0) -> np.ndarray:
    """The value of `value` if it is computable from constants alone."""
    if isinstance(value, BlockArgument) or depth > 64:
        raise NotConstant
    op = value.owner
    if op.name in ("hlo.constant", "tf.Const"):
        # (not `a or b`: an empty DenseIntOrFPElementsAttr, e.g. the shape [] of a scalar, is falsy)
        attr = op.properties.get("value")
        if attr is None:
            attr = op.attributes.get("value")
        if isinstance(attr, DenseIntOrFPElementsAttr):
            return dense_attr_to_numpy(attr)
        raise NotConstant
    if not op.name.startswith("hlo.") or op.regions or op.name not in OP_IMPLS:
        raise NotConstant
    shape = value.type.get_shape()
    if int(np.prod(shape)) > _FOLD_LIMIT:
        raise NotConstant
    args = [_fold(o, depth + 1) for o in op.operands]
    with np.errstate(all="ignore"):
        out = OP_IMPLS[op.name](op, args, None)
    outs = out if isinstance(out, (list, tuple)) else [out]
    return np.asarray(outs[list(op.results).index(value)])


def _group_operands(opdef: OpDef, operands: list[SSAValue]) -> list:
    """Flat operands -> one entry per declared input (a list for the variadic one)."""
    n_fixed = sum(1 for n in opdef.inputs if not n.startswith("*"))
    n_var = len(operands) - n_fixed
    out, pos = [], 0
    for name in opdef.inputs:
        if name.startswith("*"):
            out.append(list(operands[pos:pos + n_var]))
            pos += n_var
        else:
            out.append(operands[pos])
            pos += 1
    return out


def _attrs(opdef: OpDef, op: Operation) -> dict:
    given = {k: from_attr(v) for k, v in {**op.attributes, **op.properties}.items() if k in opdef.attrs}
    return opdef.full_attrs(given)


@dataclass
class Unsupported:
    op: Operation
    name: str


def unsupported_error(graph_name: str, ops: list[Unsupported], stacks: dict | None) -> InvalidArgumentError:
    """TF's message for ops without an XLA kernel (only the first is named, as TF does)."""
    first = ops[0]
    node = first.name
    tf_name = first.op.name[3:]
    stack: list[SourceLocation] = (stacks or {}).get(first.op, [])
    lines = "".join(f'File "{s.filename}", line {s.lineno}, in {s.function}\n' for s in stack)
    return InvalidArgumentError(
        f"Detected unsupported operations when trying to compile graph {graph_name}[_XlaMustCompile=true] on "
        f"XLA_CPU_JIT: {tf_name} (No registered '{tf_name}' OpKernel for XLA_CPU_JIT devices compatible with "
        f"node {{{{node {node}}}}}){{{{node {node}}}}}\nThe op is created at: \n{lines}"
        f"\ttf2xla conversion failed while converting {graph_name}[_XlaMustCompile=true]. Run with "
        "TF_DUMP_GRAPH_PREFIX=/path/to/dump/dir and --vmodule=xla_compiler=2 to obtain a dump of the compiled "
        f"functions. [Op:{graph_name}]")


def legalize_function(f: func.FuncOp, stacks: dict | None = None, names: dict | None = None) -> None:
    """Rewrite every tf op of `f` into hlo (in place)."""
    block = f.body.block
    unsupported = [Unsupported(op, (names or {}).get(op, op.name[3:])) for op in block.ops
                   if op.name.startswith("tf.") and not (REGISTRY.get(op.name[3:]) and REGISTRY[op.name[3:]].rule)]
    if unsupported:
        raise unsupported_error(f.sym_name.data, unsupported, stacks)
    for op in list(block.ops):
        if not op.name.startswith("tf."):
            continue
        opdef = REGISTRY[op.name[3:]]
        b = TracingBuilder(block, before=op)
        args = []
        for i, x in enumerate(_group_operands(opdef, list(op.operands))):
            if opdef.is_const(i):
                try:
                    args.append(_fold(x))
                except NotConstant:
                    node = (names or {}).get(op, opdef.name)
                    raise compile_time_constant_error(i, node, opdef.name, (stacks or {}).get(op, [])) from None
            elif isinstance(x, list):
                args.append([TValue(v) for v in x])
            else:
                args.append(TValue(x))
        out = opdef.rule(b, *args, **_attrs(opdef, op))
        outs = list(out) if isinstance(out, tuple) else [out]
        if len(outs) != len(op.results):
            raise InvalidArgumentError(f"{op.name}: rule produced {len(outs)} results, the op has {len(op.results)}")
        for r, v in zip(op.results, outs):
            if r.type != v.ssa.type:
                raise InvalidArgumentError(f"{op.name}: rule produced {v.ssa.type}, the op declares {r.type}")
            r.replace_all_uses_with(v.ssa)
        op.detach()
        op.erase()
    _dce(block)
    for op in list(block.walk()):  # replayed tf.If/tf.While bodies leave unused constants behind
        for region in op.regions:
            for inner in region.blocks:
                _dce(inner)


def _dce(block) -> None:
    """Erase the block's unused pure ops. One sweep from the end reaches the fixpoint: an erased op's
    operands are defined before it, so their ops are visited after it."""
    for op in reversed(list(block.ops)):
        if op.results and all(not r.uses for r in op.results) and op.has_trait(Pure):
            op.detach()
            op.erase()


def _branch_functions(module: ModuleOp) -> dict[str, func.FuncOp]:
    """The `func.func`s named by `tf.If`/`tf.While` ops (their bodies are replayed into regions)."""
    funcs = {op.sym_name.data: op for op in module.ops if isinstance(op, func.FuncOp)}
    used: dict[str, func.FuncOp] = {}
    for f in funcs.values():
        for op in f.walk():
            if op.name in ("tf.If", "tf.While", "tf.Case"):
                for key in ("then_branch", "else_branch", "cond", "body", "branches"):
                    ref = op.attributes.get(key) or op.properties.get(key)
                    for r in (ref.data if hasattr(ref, "data") and isinstance(ref.data, tuple) else [ref]):
                        if r is not None and symbol_name(r) in funcs:
                            used[symbol_name(r)] = funcs[symbol_name(r)]
    return used


def legalize_module(module: ModuleOp, stacks: dict | None = None, names: dict | None = None) -> ModuleOp:
    """Legalize every function; branch/body functions of `tf.If`/`tf.While` are inlined into the
    `hlo.if`/`hlo.while` regions and then removed."""
    branches = _branch_functions(module)
    MODULE_SCOPES.append({op.sym_name.data: op for op in module.ops if isinstance(op, func.FuncOp)})
    try:
        for op in list(module.ops):
            if isinstance(op, func.FuncOp) and op.body.blocks and op.sym_name.data not in branches:
                legalize_function(op, stacks, names)
    finally:
        MODULE_SCOPES.pop()
    for f in branches.values():
        f.detach()
        f.erase()
    return module


register_tf_legalizer(legalize_module)  # what `tf-legalize-to-hlo` (passes/tf_legalize_to_hlo.py) runs
