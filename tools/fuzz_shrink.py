"""Delta debugging on hlo IR: shrink a failing program while it still fails.

`shrink(module, fails)` repeats, until nothing applies, the first of these
reductions that keeps `fails(candidate)` true:

* drop one output of @main;
* bypass an op: its single result is replaced by one of its operands of the
  same type (keeps the data flow, loses the op);
* an op becomes arguments: its results turn into new arguments of @main
  (the op and whatever only fed it disappear).

Dead ops and unused arguments are removed after every step, so the result is
a small program that still shows the failure, ready to be written as `.mlir`.
"""

from __future__ import annotations

from collections.abc import Callable

from xdsl.dialects import func
from xdsl.dialects.builtin import FunctionType, ModuleOp


def entry(module: ModuleOp) -> func.FuncOp:
    return next(op for op in module.ops if isinstance(op, func.FuncOp))


def shrink(module: ModuleOp, fails: Callable[[ModuleOp], bool], max_trials: int = 400) -> ModuleOp:
    """The smallest variant of `module` found for which `fails` holds (`module` itself if none)."""
    module = module.clone()
    trials = 0
    while trials < max_trials:
        for trial in _candidates(module):
            trials += 1
            if fails(trial):
                module = trial
                break
            if trials >= max_trials:
                return module
        else:
            return module
    return module


def _candidates(module: ModuleOp):
    fn = entry(module)
    ret = fn.body.block.last_op
    assert ret is not None
    for k in range(len(ret.operands) if len(ret.operands) > 1 else 0):
        yield without_output(module, k)
    n = len([op for op in fn.body.block.ops if op is not ret])
    for i in reversed(range(n)):
        for operand in range(3):
            trial = bypassed(module, i, operand)
            if trial is not None:
                yield trial
        yield as_arguments(module, i)


def without_output(module: ModuleOp, k: int) -> ModuleOp:
    m = module.clone()
    fn = entry(m)
    ret = fn.body.block.last_op
    assert ret is not None
    keep = [v for j, v in enumerate(ret.operands) if j != k]
    fn.body.block.insert_op_before(func.ReturnOp(*keep), ret)
    ret.detach()
    ret.erase()
    fn.function_type = FunctionType.from_lists(list(fn.function_type.inputs.data), [v.type for v in keep])
    _clean(fn)
    return m


def bypassed(module: ModuleOp, i: int, operand: int) -> ModuleOp | None:
    """Op #i's single result replaced by its operand #`operand` (None when types differ)."""
    fn = entry(module)
    op = _ops(fn)[i]
    if len(op.results) != 1 or operand >= len(op.operands) or op.operands[operand].type != op.results[0].type:
        return None
    m = module.clone()
    op = _ops(entry(m))[i]
    op.results[0].replace_all_uses_with(op.operands[operand])
    _clean(entry(m))
    return m


def as_arguments(module: ModuleOp, i: int) -> ModuleOp:
    """Op #i's results become new arguments of @main."""
    m = module.clone()
    fn = entry(m)
    op = _ops(fn)[i]
    for r in op.results:
        arg = fn.body.block.insert_arg(r.type, len(fn.body.block.args))
        r.replace_all_uses_with(arg)
    op.detach()
    op.erase()
    _clean(fn)
    return m


def _ops(fn: func.FuncOp) -> list:
    ret = fn.body.block.last_op
    return [op for op in fn.body.block.ops if op is not ret]


def _clean(fn: func.FuncOp) -> None:
    """Drop dead ops and unused arguments (keeping one), then fix the function type."""
    changed = True
    while changed:
        changed = False
        for op in reversed(_ops(fn)):
            if op.results and all(not r.uses for r in op.results):
                op.detach()
                op.erase()
                changed = True
    block = fn.body.block
    for arg in reversed(list(block.args)):
        if not arg.uses and len(block.args) > 1:
            block.erase_arg(arg)
    fn.function_type = FunctionType.from_lists([a.type for a in block.args], list(fn.function_type.outputs.data))
