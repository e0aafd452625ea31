"""Running `check.*` assertions on backends that compile only `hlo`.

A StableHLO test case is a function without arguments whose body computes
values and asserts on them with `check.*` ops. Compiled backends (cpu, gpu)
have no business lowering assertions, so `outline_checks` rewrites the case
into a function that *returns* every checked value instead; the backend runs
that, and `apply_checks` evaluates the assertions on the returned arrays with
the reference interpreter's check implementations (the same code that judges
interpreter runs, so both backends are held to one standard).
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation, SSAValue


class CheckOutliningError(NotImplementedError):
    """The case's checks cannot be outlined (e.g. a check inside a loop body)."""


@dataclass(frozen=True)
class OutlinedCase:
    module: ModuleOp
    entry: str
    #: (detached check op, indices of its operands among the function's results)
    checks: tuple[tuple[Operation, tuple[int, ...]], ...]


def _drop_other_cases(module: ModuleOp, entry: func.FuncOp) -> None:
    """Erase the other test cases of the module (argument-less functions with checks that nothing
    calls): a chunk may hold several (StableHLO's triangular_solve.mlir does), and their checks,
    left in place, would reach the backend."""
    called = {op.callee.string_value() for op in module.walk() if isinstance(op, func.CallOp)}
    for other in [op for op in module.walk() if isinstance(op, func.FuncOp)]:
        if (other is not entry and not other.function_type.inputs.data and other.sym_name.data not in called
                and any(op.name.startswith("check.") for op in other.walk())):
            other.detach()
            other.erase()


def outline_checks(module: ModuleOp, entry: str) -> OutlinedCase:
    """A copy of `module` in which @entry returns the operands of its checks."""
    module = module.clone()
    fn = next((op for op in module.walk() if isinstance(op, func.FuncOp) and op.sym_name.data == entry), None)
    if fn is None:
        raise CheckOutliningError(f"no function @{entry}")
    _drop_other_cases(module, fn)
    nested = [op for op in fn.walk() if _outlined(op) and op.parent_op() is not fn]
    if nested:
        raise CheckOutliningError(f"'{nested[0].name}' inside a region cannot be outlined for a compiled backend")
    ret = fn.body.block.last_op
    if not isinstance(ret, func.ReturnOp):
        raise CheckOutliningError(f"@{entry} must end with func.return to be a test case")
    returned: list[SSAValue] = list(ret.operands)  # a case may also return values: keep them first
    checks = []
    probes = [op for op in fn.walk() if op.name == "interpreter.probe"]
    outlined = [op for op in fn.body.block.ops if _outlined(op)]
    forward: dict[SSAValue, SSAValue] = {}  # results of loops rewritten to record probes -> new results
    probed = [_probed_value(op, probes, fn, forward) for op in outlined]
    for op, extra in zip(outlined, probed):
        indices = []
        for value in [*op.operands, *extra]:
            while value in forward:
                value = forward[value]
            value = _unprobed(value)
            if value not in returned:  # each value returned once (bufferize gives a result one buffer)
                returned.append(value)
            indices.append(returned.index(value))
        op.detach()
        checks.append((op, tuple(indices)))
    for probe in probes:  # an identity once its value is outlined
        probe.results[0].replace_all_uses_with(probe.operands[0])
        probe.detach()
        probe.erase()
    ret.detach()
    ret.erase()
    fn.body.block.add_op(func.ReturnOp(*returned))
    fn.function_type = func.FunctionType.from_lists(fn.function_type.inputs.data, [v.type for v in returned])
    return OutlinedCase(module, entry, tuple(checks))


def _unprobed(value: SSAValue) -> SSAValue:
    """The value a chain of probes passes through (probes are erased after outlining)."""
    while isinstance(value.owner, Operation) and value.owner.name == "interpreter.probe":
        value = value.owner.operands[0]
    return value


def _outlined(op: Operation) -> bool:
    """Check ops and `interpreter.print`: evaluated on the returned values after the run."""
    return op.name.startswith("check.") or op.name == "interpreter.print"


def _probed_value(check: Operation, probes: list[Operation], fn: func.FuncOp,
                  forward: dict[SSAValue, SSAValue]) -> list[SSAValue]:
    """For `check.expect_serialized_eq`: the value its probe recorded at the iteration, and how many
    values it recorded (backends/probe_loops.py)."""
    from minixla.backends.probe_loops import ProbeOutliningError, recorded

    if check.name != "check.expect_serialized_eq":
        return []
    probe_id = check.properties["probe_id"].data
    iteration = check.properties["iter"].value.data if "iter" in check.properties else 0
    found = [p for p in probes if p.properties["probe_id"].data == probe_id]
    if len(found) != 1:
        raise CheckOutliningError(f"{len(found)} interpreter.probe ops with probe_id '{probe_id}': compiled "
                                  "backends outline exactly one")
    try:
        return list(recorded(found[0], iteration, fn, forward))
    except ProbeOutliningError as err:
        raise CheckOutliningError(str(err)) from None


def apply_checks(case: OutlinedCase, results: Sequence[np.ndarray]) -> None:
    """Evaluate each outlined check on the returned arrays (raises CheckFailure); print outlined prints."""
    import minixla.backends.interpreter.ops_check  # noqa: F401  (registers the check implementations)
    from minixla.backends.interpreter.op_table import OP_IMPLS
    from minixla.backends.interpreter.printing import format_tensor

    for op, indices in case.checks:
        if op.name == "interpreter.print":
            sys.stdout.write(format_tensor(np.asarray(results[indices[0]]), str(op.operands[0].type)) + "\n")
            continue
        OP_IMPLS[op.name](op, [np.asarray(results[i]) for i in indices], None)


def run_case(backend, module: ModuleOp, entry: str) -> None:
    """Run one test case on `backend`: natively when it evaluates check ops, else outlined."""
    if getattr(backend, "runs_check_ops", False):
        backend.compile(module, entry)()
        return
    case = outline_checks(module, entry)
    run: Callable[[], Sequence[np.ndarray]] = backend.compile(case.module, entry)
    apply_checks(case, run())
