"""`inline`: replace every `func.call` to a function of the module by the callee's body.

HLO programs call helper functions (JAX emits private `@relu`-style funcs), but
the tensor->loops lowering works per function and the destination-passing
ABI has no notion of calls between compiled functions. Inlining at the hlo
level sidesteps both and lets fusion see across call boundaries. Recursion
(which StableHLO does not allow) is reported, not looped on. Private
functions left without callers are erased.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp, StringAttr
from xdsl.passes import ModulePass
from xdsl.utils.exceptions import DiagnosticException


def _callees(module: ModuleOp) -> dict[str, func.FuncOp]:
    return {op.sym_name.data: op for op in module.walk() if isinstance(op, func.FuncOp) and op.body.blocks}


def _inline_call(call: func.CallOp, callee: func.FuncOp) -> None:
    body = callee.body.clone()
    block = body.block
    if len(body.blocks) != 1:
        raise DiagnosticException(f"inline: cannot inline @{callee.sym_name.data}: it has several blocks")
    for arg, value in zip(block.args, call.arguments):
        arg.replace_all_uses_with(value)
    ret = block.last_op
    assert isinstance(ret, func.ReturnOp)
    for result, value in zip(call.results, ret.arguments):
        result.replace_all_uses_with(value)
    ret.detach()
    ret.erase()
    for op in list(block.ops):
        op.detach()
        call.parent_block().insert_op_before(op, call)
    call.detach()
    call.erase()


@dataclass(frozen=True)
class InlinePass(ModulePass):
    name = "inline"

    max_depth: int = 64

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for _ in range(self.max_depth):
            callees = _callees(op)
            calls = [c for c in op.walk() if isinstance(c, func.CallOp) and c.callee.string_value() in callees]
            if not calls:
                break
            for call in calls:
                _inline_call(call, callees[call.callee.string_value()])
        else:
            raise DiagnosticException(f"inline: calls nest deeper than {self.max_depth} levels (recursion?)")
        called = {c.callee.string_value() for c in op.walk() if isinstance(c, func.CallOp)}
        for fn in list(_callees(op).values()):
            vis = fn.sym_visibility
            if isinstance(vis, StringAttr) and vis.data == "private" and fn.sym_name.data not in called:
                fn.detach()
                fn.erase()
