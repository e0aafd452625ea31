"""Compiled programs with collectives: native segments, MPI between them.

A collective needs every process of its group at once, so the entry function
is cut at its collectives: each op gets a *stage* (the number of collectives on
its longest path from the arguments), the ops of one stage compile into one
native segment (the whole CPU pipeline, fusion included), and the collectives of
stage s run on the host over MPI (backends/mpi/runtime.py) between segment s
and s+1, on the segments' output buffers. With one process the collectives
are the single-process case, so the same program runs with and without mpiexec.
Collectives inside loop or branch bodies are not supported here (an error says so).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from xdsl.dialects import func
from xdsl.dialects.builtin import FunctionType, ModuleOp
from xdsl.ir import Block, Operation, SSAValue

from minixla.backends.mpi.fastpath import try_allreduce
from minixla.backends.mpi.runtime import AllReduceRunner, run_collective

from minixla.backends.cpu.collective_ops import NO_CPU_PATH as _NO_CPU_PATH
from minixla.backends.cpu.collective_ops import has_collectives, is_collective  # noqa: F401 -- has_collectives: re-exported
from minixla.backends.cpu.collective_ops import mnemonic as _mnemonic

#: what a step of SegmentedExecutable's plan is: a native segment, a host collective (arrays -> results),
#: or an all_reduce of one operand (`AllReduceRunner.one`: array -> result, no lists)
_NATIVE, _HOST, _ONE_ALL_REDUCE = "native", "host", "one all_reduce"


@dataclass
class _Segment:
    run: Callable
    inputs: list[SSAValue]
    outputs: list[SSAValue]


@dataclass
class _HostCollective:
    op: Operation
    combine: Callable
    operands: tuple = ()
    results: tuple = ()
    owned: bool = False  # every operand is an intermediate buffer read by nothing else: reduce in place

    def __post_init__(self):
        if _mnemonic(self.op) == "all_reduce":
            self.runner = AllReduceRunner(self.op, self.combine, self.owned)

    def runner(self, arrays: list) -> list:
        return run_collective(self.op, arrays, self.combine, self.owned)


class SegmentedExecutable:
    """Native segments and host collectives, run in order on one list of values.

    Values are numbered once here (xDSL's SSAValue hash is Python code: a dict keyed by them cost
    more than a small MPI all-reduce per call). An intermediate value is let go after its last reader:
    the fast all-reduce's result lives in a staging buffer that is reused once nobody holds it
    (backends/mpi/fastpath.py), so a chain of all-reduces takes turns between two buffers."""

    def __init__(self, steps: list, args: list[SSAValue], returns: list[SSAValue]):
        self.steps, self.args, self.returns = steps, args, returns
        slot: dict[SSAValue, int] = {v: i for i, v in enumerate(args)}
        plan, last_read = [], {}
        for k, step in enumerate(steps):
            ins = tuple(slot[v] for v in (step.inputs if isinstance(step, _Segment) else step.operands))
            last_read.update(dict.fromkeys(ins, k))
            outs = step.outputs if isinstance(step, _Segment) else step.results
            for v in outs:
                slot[v] = len(slot)
            if isinstance(step, _Segment):
                plan.append((step.run, ins, slot[outs[0]] if outs else 0, len(outs), _NATIVE))
            elif isinstance(step.runner, AllReduceRunner) and len(ins) == 1 and len(steps) > 1:
                plan.append((step.runner.one, ins, slot[outs[0]], 1, _ONE_ALL_REDUCE))
            else:
                plan.append((step.runner, ins, slot[outs[0]] if outs else 0, len(outs), _HOST))
        self._ret = tuple(slot[v] for v in returns)
        dead: list[list[int]] = [[] for _ in plan]
        for i, k in last_read.items():
            if i >= len(args) and i not in self._ret:
                dead[k].append(i)
        self._plan = [(*step, tuple(d)) for step, d in zip(plan, dead)]
        self._size = len(slot)
        if (len(plan) == 1 and plan[0][4] is _HOST and plan[0][1] == tuple(range(len(args)))
                and self._ret == tuple(range(len(args), len(slot)))):
            self.__class__ = _OneCollective  # the program is one collective: no value list
            if len(args) == 1 and self._ret == (1,) and isinstance(plan[0][0], AllReduceRunner):
                self._runner = plan[0][0]
                self.__class__ = _OneAllReduce

    def __call__(self, *arrays) -> tuple[np.ndarray, ...]:
        if len(arrays) != len(self.args):
            raise TypeError(f"expected {len(self.args)} arguments, got {len(arrays)}")
        arrays = [np.asarray(a) for a in arrays]
        env: list = [*arrays, *[None] * (self._size - len(arrays))]
        for run, ins, first, count, kind, dead in self._plan:
            if kind is _ONE_ALL_REDUCE:
                env[first] = run(env[ins[0]])
            else:
                env[first:first + count] = run([env[i] for i in ins]) if kind is _HOST else run(*[env[i] for i in ins])
            for i in dead:
                env[i] = None
        inputs = {id(a) for a in arrays}  # a returned argument is copied (callers may own the result)
        return tuple(np.array(env[i], copy=True) if id(env[i]) in inputs else env[i] for i in self._ret)


class _OneCollective(SegmentedExecutable):
    """A program that is a single collective on its arguments, returning its results."""

    def __call__(self, *arrays) -> tuple[np.ndarray, ...]:
        if len(arrays) != len(self.args):
            raise TypeError(f"expected {len(self.args)} arguments, got {len(arrays)}")
        ins = [a if a.__class__ is np.ndarray else np.asarray(a) for a in arrays]
        outs = self._plan[0][0](ins)
        if len(outs) == 1 and len(ins) == 1:
            return (outs[0].copy() if outs[0] is ins[0] else outs[0],)
        return tuple(np.array(o, copy=True) if any(o is a for a in ins) else o for o in outs)


class _OneAllReduce(SegmentedExecutable):
    """A program that is one all_reduce of its one argument (a gradient all-reduce step, the benchmark)."""

    def __call__(self, *arrays) -> tuple[np.ndarray, ...]:
        if len(arrays) != 1:
            raise TypeError(f"expected 1 argument, got {len(arrays)}")
        x = arrays[0] if arrays[0].__class__ is np.ndarray else np.asarray(arrays[0])
        runner = self._runner
        if runner.state is not None:  # an agreed all-reduce: one round trip (fresh result, never x)
            out = try_allreduce(runner.state, x, runner.name)
            if out is not None:
                return (out,)
        out = runner.one(x)
        return (out.copy() if out is x else out,)


def _check_supported(module: ModuleOp, fn: func.FuncOp) -> None:
    for op in module.walk():
        if not is_collective(op):
            continue
        if _mnemonic(op) in _NO_CPU_PATH:
            raise NotImplementedError(f"'{op.name}' has no CPU implementation (the interpreter runs it on a "
                                      "simulated process grid)")
        if op.parent_op() is not fn:
            where = op.parent_op().name if op.parent_op() is not None else "?"
            raise NotImplementedError(f"'{op.name}' inside '{where}': collectives compile for the CPU only at the "
                                      "top level of the entry function")


def _stages(fn: func.FuncOp) -> tuple[dict[Operation, int], int]:
    """Stage of every top-level op: collectives at stage s read values of stages <= s and
    make values of stage s+1; other ops sit at the highest stage of their operands."""
    level: dict[SSAValue, int] = {a: 0 for a in fn.body.block.args}
    stage: dict[Operation, int] = {}

    def value_level(v: SSAValue) -> int:
        return level.get(v, 0)  # values from enclosing scopes (none at top level) count as stage 0

    for op in fn.body.block.ops:
        s = max((value_level(v) for v in op.operands), default=0)
        for region in op.regions:  # implicit captures of region bodies
            for inner in region.walk():
                s = max([s, *(value_level(v) for v in inner.operands)])
        stage[op] = s
        for r in op.results:
            level[r] = s + 1 if is_collective(op) else s
    return stage, max(stage.values(), default=0)


def _segment_module(module: ModuleOp, entry: str, ops: list[Operation], inputs: list[SSAValue],
                    outputs: list[SSAValue]) -> ModuleOp:
    """A copy of `module` whose @entry computes `outputs` from `inputs` with `ops`."""
    new = module.clone()
    fn = next(op for op in new.ops if isinstance(op, func.FuncOp) and op.sym_name.data == entry)
    block = Block(arg_types=[v.type for v in inputs])
    mapping: dict[SSAValue, SSAValue] = dict(zip(inputs, block.args))
    for op in ops:
        block.add_op(op.clone(value_mapper=mapping))
    block.add_op(func.ReturnOp(*[mapping[v] for v in outputs]))
    old = fn.body.blocks[0]
    fn.body.detach_block(old)
    old.erase(safe_erase=False)
    fn.body.add_block(block)
    fn.function_type = FunctionType.from_lists([v.type for v in inputs], [v.type for v in outputs])
    return new


def compile_with_collectives(compile_segment: Callable[[ModuleOp, str], Callable], module: ModuleOp,
                             entry: str) -> SegmentedExecutable:
    """Cut @entry at its collectives; compile each segment with `compile_segment(module, entry)`."""
    from minixla.backends.interpreter.evaluator import Interpreter

    fn = next(op for op in module.ops if isinstance(op, func.FuncOp) and op.sym_name.data == entry)
    _check_supported(module, fn)
    stage, last = _stages(fn)
    body = list(fn.body.block.ops)
    ret = body[-1]
    consumers: dict[SSAValue, set[int]] = {}  # value -> stages (or "after the last stage") that read it
    for op in body:
        reader = last + 1 if op is ret else stage[op] + (0.5 if is_collective(op) else 0)
        for v in op.operands:
            consumers.setdefault(v, set()).add(reader)
        for region in op.regions:
            for inner in region.walk():
                for v in inner.operands:
                    consumers.setdefault(v, set()).add(reader)
    interp = Interpreter(module)

    def combine(op: Operation, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        return np.asarray(interp.combiner(op.regions[0])([a], [b])[0], dtype=np.asarray(a).dtype)

    steps: list = []
    for s in range(last + 1):
        ops = [op for op in body if op is not ret and stage[op] == s and not is_collective(op)]
        defined = {r for op in ops for r in op.results}
        used = [v for op in ops for v in [*op.operands, *(u for rg in op.regions for i in rg.walk()
                                                            for u in i.operands)]]
        inputs = list(dict.fromkeys(v for v in used if v not in defined and not _defined_inside(v, ops)))
        outputs = [r for op in ops for r in op.results if any(c > s for c in consumers.get(r, ()))]
        if ops and outputs:
            seg = _segment_module(module, entry, ops, inputs, outputs)
            steps.append(_Segment(compile_segment(seg, entry), inputs, outputs))
        for op in body:
            if is_collective(op) and stage[op] == s:
                owned = all(v not in fn.body.block.args and v not in ret.operands and v.has_one_use()
                            for v in op.operands)
                steps.append(_HostCollective(op, combine, tuple(op.operands), tuple(op.results), owned))
    return SegmentedExecutable(steps, list(fn.body.block.args), list(ret.operands))


def _defined_inside(value: SSAValue, ops: list[Operation]) -> bool:
    owner = value.owner
    node = owner.parent_op() if isinstance(owner, Block) else owner
    while node is not None:
        if node in ops:
            return True
        node = node.parent_op()
    return False
