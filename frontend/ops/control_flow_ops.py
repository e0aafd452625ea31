"""`If` and `While` (category 10): functional control flow with branch/body functions.

As in TensorFlow's MLIR, `"tf.If"(%pred, %ins...) {then_branch = @f, else_branch = @g}` and
`"tf.While"(%vars...) {cond = @c, body = @b}` name `func.func`s of `tf` ops (traced by
`tf.cond`/`tf.while_loop`, see frontend/control_flow.py). The rules lower them to the
builder's `conditional`/`while_loop`, whose region bodies *replay* those functions op by
op through the same registry rules, so one rule again serves eager runs (numpy), type
inference and `tf-legalize-to-hlo` (`hlo.if`/`hlo.while` regions). Functions are found in
the module being legalized (text IR), else in the process-wide table of traced ones.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from minixla.frontend.ops.registry import REQUIRED, op_error, register

#: traced branch/body functions by symbol name (names are unique per process)
FUNCTIONS: dict[str, Any] = {}


def lookup(ref):
    from minixla.frontend.legalize import MODULE_SCOPES, symbol_name  # legalize imports this package

    name = symbol_name(ref)
    for scope in reversed(MODULE_SCOPES):
        if name in scope:
            return scope[name]
    if name in FUNCTIONS:
        return FUNCTIONS[name]
    raise KeyError(f"no function @{name} for a tf.If/tf.While")


def _builder_constant(value) -> np.ndarray:
    """The numpy value of a builder value, if it is statically known."""
    from minixla.frontend.legalize import NotConstant, _fold

    if isinstance(value, np.ndarray) or np.isscalar(value):
        return np.asarray(value)
    if getattr(value, "value", None) is not None:  # ConstSpec
        return np.asarray(value.value)
    if hasattr(value, "key") and hasattr(value, "v"):  # RValue
        return _builder_constant(value.v)
    if hasattr(value, "tensor"):  # GValue
        if value.tensor._const is not None:
            return np.asarray(value.tensor._const)
        raise NotConstant
    if hasattr(value, "ssa"):  # TValue
        return _fold(value.ssa)
    raise NotConstant


def replay(b, f, args: list) -> list:
    """Run the `tf` ops of `func.func` `f` on builder `b` with block arguments `args`."""
    from xdsl.ir import BlockArgument

    from minixla.frontend.builder_eager import EagerBuilder
    from minixla.frontend.errors import compile_time_constant_error
    from minixla.frontend.execute import run_eager
    from minixla.frontend.legalize import NotConstant, Unsupported, _attrs, _group_operands, unsupported_error
    from minixla.frontend.ops.registry import REGISTRY

    block = f.body.block
    env = dict(zip(block.args, args))
    known: dict = {}

    def const_value(v):
        if v in known:
            return known[v]
        if isinstance(v, BlockArgument):
            val = _builder_constant(env[v])
        else:
            op = v.owner
            opdef = REGISTRY[op.name[3:]]
            if not opdef.compilable or opdef.stateful or op.regions:
                raise NotConstant
            ins = [[const_value(x) for x in g] if isinstance(g, list) else const_value(g)
                   for g in _group_operands(opdef, list(op.operands))]
            val = run_eager(opdef, ins, _attrs(opdef, op))[list(op.results).index(v)]
        known[v] = val
        return val

    for op in block.ops:
        if op.name == "func.return":
            return [env[o] for o in op.operands]
        opdef = REGISTRY[op.name[3:]]
        attrs = _attrs(opdef, op)
        ins = []
        for i, g in enumerate(_group_operands(opdef, list(op.operands))):
            if opdef.is_const(i):
                try:
                    ins.append(const_value(g))
                except NotConstant:
                    raise compile_time_constant_error(i, opdef.name, opdef.name, []) from None
            else:
                ins.append([env[x] for x in g] if isinstance(g, list) else env[g])
        if opdef.compilable:
            out = opdef.rule(b, *ins, **attrs)
        elif isinstance(b, EagerBuilder):
            out = tuple(run_eager(opdef, [[np.asarray(x) for x in i] if isinstance(i, list) else np.asarray(i)
                                          for i in ins], attrs))
        else:
            raise unsupported_error(f.sym_name.data, [Unsupported(op, opdef.name)], None)
        outs = list(out) if isinstance(out, tuple) else [out]
        env.update(zip(op.results, outs))
    raise ValueError(f"@{f.sym_name.data} has no func.return")


def _as_pred(b, p):
    if tuple(p.shape) != ():
        if int(np.prod(p.shape)) != 1:
            raise op_error("If", f"pred must be a scalar, got shape [{','.join(map(str, p.shape))}]")
        p = b.reshape(p, [])
    if np.dtype(p.dtype) != np.bool_:  # TF: non-zero numbers (and non-empty strings) are true
        p = b.compare(p, b.scalar(0, p.dtype), "NE")
    return p


def if_(b, cond, input, then_branch, else_branch, is_stateless=True):
    then_f, else_f = lookup(then_branch), lookup(else_branch)
    outs = b.conditional(_as_pred(b, cond), list(input), lambda bb, vals: replay(bb, then_f, vals),
                         lambda bb, vals: replay(bb, else_f, vals))
    return tuple(outs)


def while_(b, input, cond, body, is_stateless=True, parallel_iterations=10):
    cond_f, body_f = lookup(cond), lookup(body)
    outs = b.while_loop(lambda bb, vals: _as_pred(bb, replay(bb, cond_f, vals)[0]),
                        lambda bb, vals: replay(bb, body_f, vals), list(input))
    return tuple(outs)


register("If", ("cond", "*input"), if_, attrs={"then_branch": REQUIRED, "else_branch": REQUIRED,
                                               "is_stateless": True}, typed=())
register("While", ("*input",), while_, attrs={"cond": REQUIRED, "body": REQUIRED, "is_stateless": True,
                                              "parallel_iterations": 10}, typed=())
