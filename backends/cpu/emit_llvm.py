"""Direct LLVM IR emitter, function bodies: one walk over a loop-level function (func/scf/arith/math/
memref, after `convert-parallel-loops-to-threads` and the narrow-float emulation) that writes LLVM IR
text, instead of nine xDSL passes building llvm-dialect ops and translate.py rebuilding them with
llvmlite.ir (~170 ms of the MLP step's cold first call; docs/compile-time.md, "Session 9").

Control flow is laid out as `lower-scf-to-cf` lays it out (a loop: preheader, header with phis and
`icmp slt`, body blocks, latch, exit; `scf.if`: then, else, continuation; `scf.parallel`: a `for`
nest, outermost dimension outermost, reductions carried), so block order, and with it the loop hints
(loop_hints.py: read here from the scf loops' constant bounds) and the cut of a big function into a
head and a tail (outline.py) work as on the llvm dialect. One difference: a loop with constant bounds
that runs at least once is emitted rotated (no test before its first iteration, the test in the
latch; `FunctionEmitter._rotated`), which LLVM's loop passes would otherwise do themselves;
`MINIXLA_LOOP_HINTS=0` turns that off with the hints (then the text is the old path's program). Ops come from the tables of
emit_llvm_ops.py; anything else raises `Unsupported` before a line reaches the caller.
"""

from __future__ import annotations

from xdsl.dialects import func, scf
from xdsl.ir import Block, Operation, SSAValue

from minixla.backends.cpu import loop_hints
from minixla.backends.cpu.emit_llvm_memref import MEMREF
from minixla.backends.cpu.emit_llvm_ops import ARITH, MATH, Unsupported, int_constant, llvm_type, result_type

#: op class -> `handler(emitter, op)`: the arith/math/memref ops here, the structured ops below the emitter
HANDLERS = {**ARITH, **MATH, **MEMREF}

THREADED_SUFFIX = "__threaded"
TASK_SUFFIX = "__task"


class Out:
    """One basic block being written: phis (name, type, [(value, label)]), instruction lines (the last one
    the terminator), successor blocks, and the internal functions it refers to (for cut weights)."""

    __slots__ = ("label", "phis", "lines", "succs", "refs", "index", "consts")

    def __init__(self, label: str):
        self.label = label
        self.phis: list[tuple[str, str, list[tuple[str, str]]]] = []
        self.lines: list[str] = []
        self.succs: list[Out] = []
        self.refs: list[str] = []
        self.index = -1
        #: constants the llvm-dialect path would have made ops here (cut weights count as it did)
        self.consts = 0

    def text(self) -> list[str]:
        phis = [f"  {n} = phi {t} " + ", ".join(f"[{v}, %{lbl}]" for v, lbl in inc) for n, t, inc in self.phis]
        return [f"{self.label}:", *phis, *self.lines]


class _Loop:
    __slots__ = ("trip", "inner", "sub")

    def __init__(self, trip: int | None):
        self.trip = trip
        self.inner = False
        #: iterations of the biggest nest inside (1: none; None: one of unknown size)
        self.sub: int | None = 1


def _no_wrap(it: str, lb: str, step: str, trip: int) -> str:
    """`nuw nsw ` when stepping a loop of `trip` iterations from `lb` cannot wrap in type `it`, else ''."""
    try:
        lo, st = int(lb), int(step)
    except ValueError:
        return ""
    bits = int(it[1:]) if it[0] == "i" and it[1:].isdigit() else 0
    return "nuw nsw " if bits > 1 and lo >= 0 and st > 0 and lo + trip * st < 1 << (bits - 1) else ""


def _trips(lb: SSAValue, ub: SSAValue, step: SSAValue) -> int | None:
    lo, hi, st = int_constant(lb), int_constant(ub), int_constant(step)
    if lo is None or hi is None or st is None or st <= 0:
        return None
    return max(0, -(-(hi - lo) // st))


class FunctionEmitter:
    """The blocks of one `func.func` as LLVM IR; `module` (emit_llvm_module.ModuleEmitter) collects
    declarations, intrinsics, loop metadata and thread-dispatch tasks."""

    def __init__(self, module, fn: func.FuncOp):
        self.module = module
        self.fn = fn
        self.values: dict[SSAValue, str] = {}
        #: LLVM type of each named value an scf-level value maps to (the tail's parameters, outline.py)
        self.types: dict[str, str] = {}
        self.count = 0
        self.blocks: list[Out] = []
        self.loops: list[_Loop] = []
        self.hints = loop_hints.enabled()
        self.labels = 0
        self.cur = self.start(self.block())

    # ---- building ----------------------------------------------------------------------------------
    def name(self) -> str:
        self.count += 1
        return f"%t{self.count}"

    def new(self, text: str) -> str:
        name = self.name()
        self.cur.lines.append(f"  {name} = {text}")
        return name

    def do(self, text: str) -> None:
        self.cur.lines.append(f"  {text}")

    def v(self, value: SSAValue) -> str:
        try:
            return self.values[value]
        except KeyError:
            raise Unsupported(f"a value used before its definition ({value.type})") from None

    def set(self, op: Operation, value: str) -> None:
        r = op.results[0]
        self.values[r] = value
        if value[0] == "%":
            self.types[value] = llvm_type(r.type)

    def set_all(self, op: Operation, values: list[str]) -> None:
        for r, value in zip(op.results, values, strict=True):
            self.values[r] = value
            if value[0] == "%":
                self.types[value] = llvm_type(r.type)

    def declare(self, name: str, ret: str, args: list[str]) -> None:
        self.module.declare(name, ret, args)

    def call_intrinsic(self, name: str, ret: str, args: list[tuple[str, str]], flags: str = "") -> str | None:
        self.module.declare(name, ret, [t for t, _ in args])
        call = f"call {flags}{ret} @\"{name}\"({', '.join(f'{t} {v}' for t, v in args)})"
        if ret == "void":
            self.do(call)
            return None
        return self.new(call)

    def block(self) -> Out:
        """A new block, placed later by `start` (labels follow creation, the order placement)."""
        out = Out(f"bb{self.labels}")
        self.labels += 1
        return out

    def start(self, out: Out) -> Out:
        out.index = len(self.blocks)
        self.blocks.append(out)
        self.cur = out
        return out

    def branch(self, target: Out, suffix: str = "") -> None:
        self.cur.lines.append(f"  br label %{target.label}{suffix}")
        self.cur.succs.append(target)

    def cond_branch(self, cond: str, then: Out, other: Out) -> None:
        self.cur.lines.append(f"  br i1 {cond}, label %{then.label}, label %{other.label}")
        self.cur.succs += [then, other]

    # ---- the walk ----------------------------------------------------------------------------------
    def run(self) -> None:
        body = self.fn.body
        if len(body.blocks) != 1:
            raise Unsupported(f"@{self.fn.sym_name.data} has {len(body.blocks)} blocks")
        entry = body.blocks[0]
        for i, arg in enumerate(entry.args):
            self.types[f"%a{i}"] = llvm_type(arg.type)
            self.values[arg] = f"%a{i}"
        self.ops(entry)

    def ops(self, block: Block) -> Operation | None:
        """Emit `block`'s ops; returns its terminator if it is an scf.yield/scf.condition/scf.reduce (left to
        the caller), else None."""
        for op in block.ops:
            handler = HANDLERS.get(type(op))
            if handler is not None:
                handler(self, op)
            elif type(op) in REGION_TERMINATORS:
                return op
            else:
                raise Unsupported(f"'{op.name}'")
        return None

    def region_body(self, block: Block, args: list[str]) -> Operation:
        if len(block.parent.blocks) != 1:
            raise Unsupported("a multi-block scf region")
        for arg, value in zip(block.args, args, strict=True):
            llvm_type(arg.type)
            self.values[arg] = value
        term = self.ops(block)
        if term is None:
            raise Unsupported("an scf region without a yield")
        return term

    # ---- loops -------------------------------------------------------------------------------------
    def counted_loop(self, lb: SSAValue, ub: SSAValue, step: SSAValue, inits: list[tuple[str, str]],
                     body) -> list[str]:
        """A `for` loop as lower-scf-to-cf lays it out; `inits`: (type, value) of the carried values;
        `body(iv, accs)` emits the body, returns the values yielded. Returns the loop's results (the
        header's phis)."""
        return self.loop(llvm_type(lb.type), self.v(lb), self.v(ub), self.v(step), _trips(lb, ub, step), inits,
                         body)

    def loop(self, it: str, lb: str, ub: str, step: str, trip: int | None, inits: list[tuple[str, str]], body,
             step_flags: str = "") -> list[str]:
        """`counted_loop` on emitted values (`trip`: the trip count when the bounds are constants). A loop
        known to run at least once is emitted rotated (`_rotated`)."""
        if trip and self.hints:
            return self._rotated(it, lb, ub, step, trip, inits, body)
        pre = self.cur
        header, first, exit_ = self.block(), self.block(), self.block()
        phis, accs, loop = self._enter(header, it, lb, inits, pre, trip)
        cond = self.new(f"icmp slt {it} {phis[0][0]}, {ub}")
        self.cond_branch(cond, first, exit_)
        self.start(first)
        yielded = body(phis[0][0], accs)
        stepped = self.new(f"add {step_flags}{it} {phis[0][0]}, {step}")
        latch = self.cur
        self.branch(header, self.module.loop_hint(self.hint(loop)))
        self.close(loop)
        for (_, _, inc), value in zip(phis, [stepped, *yielded], strict=True):
            inc.append((value, latch.label))
        self.start(exit_)
        return accs

    def _enter(self, header: Out, it: str, lb: str, inits: list[tuple[str, str]], pre: Out, trip: int | None):
        """Branch from `pre` into a loop's `header`, which gets the phis of the induction variable and the
        carried values (incoming from `pre` only, so far); the loop joins `self.loops`."""
        iv = self.name()
        accs = [self.name() for _ in inits]
        self.types[iv] = it
        self.types.update((a, t) for a, (t, _) in zip(accs, inits))
        phis = [(iv, it, [(lb, pre.label)])]
        phis += [(a, t, [(v, pre.label)]) for a, (t, v) in zip(accs, inits)]
        self.branch(header)
        self.start(header)
        header.phis = phis
        if self.loops:
            self.loops[-1].inner = True
        loop = _Loop(trip)
        self.loops.append(loop)
        return phis, accs, loop

    def _rotated(self, it: str, lb: str, ub: str, step: str, trip: int, inits: list[tuple[str, str]],
                 body) -> list[str]:
        """A loop of `trip` > 0 iterations laid out as LLVM's loop-rotate leaves it: no test before the
        first iteration, the body's first block is the header, the latch steps and tests (`icmp slt` of
        the stepped value: trip counts and exits as lower-scf-to-cf's layout), and the results are the
        last iteration's values. LLVM's loop passes then start from their canonical form (the MLP step:
        optimize 78 -> 68 ms CPU). The step wraps neither way when the bounds say so."""
        pre = self.cur
        header, exit_ = self.block(), self.block()
        phis, accs, loop = self._enter(header, it, lb, inits, pre, trip)
        yielded = body(phis[0][0], accs)
        stepped = self.new(f"add {_no_wrap(it, lb, step, trip)}{it} {phis[0][0]}, {step}")
        more = self.new(f"icmp slt {it} {stepped}, {ub}")
        latch = self.cur
        self.cond_branch(more, header, exit_)
        latch.lines[-1] += self.module.loop_hint(self.hint(loop))
        self.close(loop)
        for (_, _, inc), value in zip(phis, [stepped, *yielded], strict=True):
            inc.append((value, latch.label))
        self.start(exit_)
        return yielded

    def hint(self, loop: _Loop) -> str | None:
        """loop_hints' verdict for a loop of known trip count in a nest of known size (see there)."""
        if not self.hints or loop.trip is None or loop.sub is None:
            return None
        work = loop.trip * loop.sub
        for outer in self.loops[:-1]:
            if outer.trip is None:
                return None
            work *= outer.trip
        return loop_hints.verdict(loop.trip, work, innermost=not loop.inner)

    def close(self, loop: _Loop) -> None:
        """`loop` is done: its nest's size goes to the enclosing loop's."""
        self.loops.pop()
        if self.loops:
            outer = self.loops[-1]
            size = None if loop.trip is None or loop.sub is None or outer.sub is None else loop.trip * loop.sub
            outer.sub = None if size is None else max(outer.sub, size)

    def for_op(self, op: scf.ForOp) -> None:
        def body(iv: str, accs: list[str]) -> list[str]:
            term = self.region_body(op.body.block, [iv, *accs])
            if not isinstance(term, scf.YieldOp):
                raise Unsupported("scf.for without scf.yield")
            return [self.v(v) for v in term.operands]

        inits = [(llvm_type(v.type), self.v(v)) for v in op.iter_args]
        results = self.counted_loop(op.lb, op.ub, op.step, inits, body)
        self.set_all(op, results)

    def parallel(self, op: scf.ParallelOp) -> None:
        """A sequential nest (ParallelToForNest): reductions carried, each folded by its region."""
        dims = list(zip(op.lowerBound, op.upperBound, op.step))
        ivs: list[str] = []
        types = [llvm_type(v.type) for v in op.initVals]

        def level(d: int):
            def body(iv: str, accs: list[str]) -> list[str]:
                ivs.append(iv)
                if d + 1 < len(dims):
                    lb, ub, st = dims[d + 1]
                    return self.counted_loop(lb, ub, st, list(zip(types, accs)), level(d + 1))
                term = self.region_body(op.body.block, ivs)
                if not isinstance(term, scf.ReduceOp):
                    raise Unsupported("scf.parallel without scf.reduce")
                out = []
                for acc, value, region in zip(accs, term.args, term.reductions, strict=True):
                    ret = self.region_body(region.block, [acc, self.v(value)])
                    out.append(self.v(ret.operands[0]))
                return out
            return body

        if not dims:
            raise Unsupported("a zero-dimensional scf.parallel")
        lb, ub, st = dims[0]
        inits = [(t, self.v(v)) for t, v in zip(types, op.initVals)]
        self.set_all(op, self.counted_loop(lb, ub, st, inits, level(0)))

    def while_op(self, op: scf.WhileOp) -> None:
        before, after = op.before_region, op.after_region
        if len(before.blocks) != 1 or len(after.blocks) != 1:
            raise Unsupported("a multi-block scf.while")
        pre = self.cur
        header, body, exit_ = self.block(), self.block(), self.block()
        names = [self.name() for _ in before.block.args]
        phis = [(n, llvm_type(a.type), [(self.v(v), pre.label)])
                for n, a, v in zip(names, before.block.args, op.arguments, strict=True)]
        self.types.update((n, t) for n, t, _ in phis)
        self.branch(header)
        self.start(header)
        header.phis = phis
        if self.loops:
            self.loops[-1].inner = True
        loop = _Loop(None)
        self.loops.append(loop)
        cond = self.region_body(before.block, names)
        if not isinstance(cond, scf.ConditionOp):
            raise Unsupported("scf.while without scf.condition")
        carried = [self.v(v) for v in cond.args]
        self.cond_branch(self.v(cond.condition), body, exit_)
        self.start(body)
        yielded = self.region_body(after.block, carried)
        if not isinstance(yielded, scf.YieldOp):
            raise Unsupported("scf.while without scf.yield")
        latch = self.cur
        for (_, _, inc), v in zip(phis, yielded.operands, strict=True):
            inc.append((self.v(v), latch.label))
        self.branch(header)
        self.close(loop)
        self.start(exit_)
        self.set_all(op, carried)

    def switch(self, op: scf.IndexSwitchOp) -> None:
        """scf.index_switch: the index truncated to i32 (as xDSL's lowering does), one `switch`
        (the old path's compare chain, which SimplifyCFG turns into one); a repeated case value
        keeps its first region."""
        flag = self.new(f"trunc i64 {self.v(op.arg)} to i32")
        cases = [self.block() for _ in op.case_regions]
        default, cont = self.block(), self.block()
        seen: set[int] = set()
        table = []
        for value, out in zip(op.cases.get_values(), cases, strict=True):
            value = ((value + (1 << 31)) % (1 << 32)) - (1 << 31)
            if value not in seen:
                seen.add(value)
                table.append(f"i32 {value}, label %{out.label}")
        self.do(f"switch i32 {flag}, label %{default.label} [{' '.join(table)}]")
        self.cur.succs += [*cases, default]
        self.join(op, [*zip(op.case_regions, cases), (op.default_region, default)], cont, "scf.index_switch")

    def if_op(self, op: scf.IfOp) -> None:
        then, cont = self.block(), self.block()
        other = self.block() if op.false_region.blocks else cont
        self.cond_branch(self.v(op.cond), then, other)
        arms = [(region, out) for region, out in ((op.true_region, then), (op.false_region, other)) if out is not cont]
        self.join(op, arms, cont, "scf.if")

    def join(self, op: Operation, arms: list, cont, what: str) -> None:
        """Each (region, block) arm emitted into its block, branching to `cont`, whose phis take the
        arms' `scf.yield` operands as `op`'s results."""
        names = [self.name() for _ in op.results]
        phis = [(n, llvm_type(r.type), []) for n, r in zip(names, op.results)]
        self.types.update((n, t) for n, t, _ in phis)
        for region, out in arms:
            self.start(out)
            term = self.region_body(region.block, [])
            if not isinstance(term, scf.YieldOp):
                raise Unsupported(f"{what} without scf.yield")
            for (_, _, inc), v in zip(phis, term.operands, strict=True):
                inc.append((self.v(v), self.cur.label))
            self.branch(cont)
        self.start(cont)
        cont.phis = phis
        self.set_all(op, names)

    # ---- calls and returns -------------------------------------------------------------------------
    def call(self, op: func.CallOp) -> None:
        callee = op.callee.root_reference.data
        args = [(llvm_type(a.type), self.v(a)) for a in op.arguments]
        if callee.endswith(THREADED_SUFFIX) and self.module.is_threaded(callee):
            self.dispatch(callee.removesuffix(THREADED_SUFFIX), args)
            return
        ret = result_type(op.result_types)
        if self.module.is_internal(callee):
            self.cur.refs.append(callee)
        text = f"call {ret} @\"{callee}\"({', '.join(f'{t} {v}' for t, v in args)})"
        if len(op.results) > 1:
            res = self.new(text)
            self.set_all(op, [self.new(f"extractvalue {ret} {res}, {j}") for j in range(len(op.results))])
        elif op.results:
            self.set(op, self.new(text))
        else:
            self.do(text)

    def dispatch(self, body_name: str, args: list[tuple[str, str]]) -> None:
        """`X__threaded(lo, hi, caps...)` -> the captures in 8-byte slots of an entry-block alloca and
        `minixla_parallel_for(@X__task, slots, lo, hi)` (as lower-thread-dispatch writes it)."""
        caps = args[2:]
        slot = self.name()
        self.types[slot] = "ptr"
        self.blocks[0].lines.insert(0, f"  {slot} = alloca ptr, i64 {max(len(caps), 1)}, align 8")
        self.blocks[0].consts += 1
        for i, (t, v) in enumerate(caps):
            gep = self.new(f"getelementptr ptr, ptr {slot}, i32 {i}")
            self.do(f"store {t} {v}, ptr {gep}")
        task = self.module.task(body_name, [t for t, _ in caps])
        self.cur.refs.append(task)
        self.cur.consts += 1  # (llvm.mlir.addressof of the task)
        self.do(f'call void @"minixla_parallel_for"(ptr @"{task}", ptr {slot}, i64 {args[0][1]}, i64 {args[1][1]})')

    def ret(self, op: func.ReturnOp) -> None:
        if len(op.arguments) > 1:
            ret = result_type([v.type for v in op.arguments])
            acc = "undef"
            for j, v in enumerate(op.arguments):
                acc = self.new(f"insertvalue {ret} {acc}, {llvm_type(v.type)} {self.v(v)}, {j}")
            self.do(f"ret {ret} {acc}")
        elif op.arguments:
            v = op.arguments[0]
            self.do(f"ret {llvm_type(v.type)} {self.v(v)}")
        else:
            self.do("ret void")

    # ---- output ------------------------------------------------------------------------------------
    def weights(self, closure) -> list[int]:
        """Per block: its operations as the llvm dialect had them (instructions and constants, no phis),
        plus the size of the internal functions it refers to: outline.plan_cut's weights, so the cut
        falls where it fell."""
        return [len(b.lines) + b.consts + sum(closure(r) for r in b.refs) for b in self.blocks]

    def successors(self) -> list[list[int]]:
        return [[s.index for s in b.succs] for b in self.blocks]


HANDLERS.update({
    scf.ForOp: FunctionEmitter.for_op,
    scf.ParallelOp: FunctionEmitter.parallel,
    scf.IfOp: FunctionEmitter.if_op,
    scf.WhileOp: FunctionEmitter.while_op,
    scf.IndexSwitchOp: FunctionEmitter.switch,
    func.CallOp: FunctionEmitter.call,
    func.ReturnOp: FunctionEmitter.ret,
})
#: terminators `FunctionEmitter.ops` hands back to the caller that emits the region
REGION_TERMINATORS = frozenset({scf.YieldOp, scf.ConditionOp, scf.ReduceOp, scf.ReduceReturnOp})
