"""The bufferizer: rebuilds each function over memrefs, block by block.

Every memref has a *root* (an allocation, a function argument, a global, or a
loop-carried buffer). An op may write into the buffer of a tensor operand
only if that root is owned here (allocated in this block, or the loop's own
carried buffer) and no tensor aliasing the root is used later in the block:
then it works in place, otherwise it writes a fresh allocation (copying the
old contents only when the body reads them). `tensor.empty` allocates lazily,
so an elementwise op can take over a dead operand's buffer instead.
Loop-carried tensors live in one buffer per value for the whole loop (the
init's buffer when it is dead after the loop); the body copies a yielded
value into it unless it was computed there in place. Results of if/switch
get a buffer before the op that each branch copies into. Deallocation is
inserted after the last use of each root, in the block that allocated it.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import arith, func, memref, scf, tensor
from xdsl.dialects.linalg.ops import GenericOp
from xdsl.dialects.builtin import (DYNAMIC_INDEX, ArrayAttr, DenseIntOrFPElementsAttr, DictionaryAttr, FunctionType,
                                   MemRefType, ModuleOp, TensorType)
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.utils.exceptions import DiagnosticException

from minixla.passes.fast_build import like
from minixla.passes.locations import inherit, ops_after
from minixla.passes.bufferize.memory import (Globals, alloc, copy, copy_to_offsets, identity_memref, insert_deallocs,
                                             is_identity, memref_type, subview)

PASS_NAME = "bufferize"


def _fail(op: Operation, why: str) -> DiagnosticException:
    return DiagnosticException(f"{PASS_NAME}: cannot bufferize '{op.name}': {why}")


def _block_of(v: SSAValue) -> Block | None:
    owner = v.owner
    return owner if isinstance(owner, Block) else owner.parent_block()


def _nested_in(block: Block | None, outer: Block) -> bool:
    """Is `block` strictly inside a region of an op of `outer`?"""
    while block is not None:
        op = block.parent_op()
        if op is None:
            return False
        block = op.parent_block()
        if block is outer:
            return True
    return False


def _last_uses(block: Block) -> dict[SSAValue, int]:
    """value -> index of the last op of `block` that uses it (nested uses count)."""
    last: dict[SSAValue, int] = {}
    for i, op in enumerate(block.ops):
        for o in op.walk():
            for v in o.operands:
                last[v] = i
    return last


class Pending:
    """A `tensor.empty` not yet allocated."""

    def __init__(self, t: TensorType):
        self.type = memref_type(t)


class BlockState:
    def __init__(self, old: Block, new: Block):
        self.old, self.new = old, new
        self.last = _last_uses(old)
        self.index = 0
        self.owned: dict[SSAValue, set[SSAValue]] = {}  # roots allocated here -> aliases (new values)
        self.writable: set[SSAValue] = set()  # roots this block may overwrite
        self.loop_roots: set[SSAValue] = set()  # scf.for carried roots: only aliases in this block count


class Bufferizer:
    def __init__(self, globals_: Globals):
        self.globals = globals_
        self.vmap: dict[SSAValue, SSAValue | Pending] = {}
        self.root: dict[SSAValue, SSAValue] = {}  # new memref -> root
        self.aliases: dict[SSAValue, list[SSAValue]] = {}  # root -> old tensor values using it
        self.state: BlockState | None = None

    # -- bookkeeping ----------------------------------------------------------
    def bind(self, old: SSAValue, new: SSAValue, root: SSAValue | None = None) -> None:
        r = self.root.get(new, new) if root is None else root
        self.root[new] = r
        self.vmap[old] = new
        self.aliases.setdefault(r, []).append(old)
        st = self.state
        if st is not None and r in st.owned:
            st.owned[r].add(new)

    def m(self, old: SSAValue) -> SSAValue:
        v = self.vmap.get(old, old)
        if isinstance(v, Pending):
            v = self._materialize(old, v)
        return v

    def _materialize(self, old: SSAValue, p: Pending) -> SSAValue:
        new = self.new_alloc(p.type)
        self.bind(old, new)
        return new

    def new_alloc(self, t: MemRefType) -> SSAValue:
        st = self.state
        assert st is not None
        a = alloc(st.new, t)
        self.root[a] = a
        st.owned[a] = {a}
        st.writable.add(a)
        return a

    def dead_after(self, old: SSAValue) -> bool:
        """No use of `old` after the current op (and it is defined in this block)."""
        st = self.state
        assert st is not None
        block = _block_of(old)
        if block is not st.old:
            return _nested_in(block, st.old)  # scoped to an earlier op's region: gone after it
        return st.last.get(old, -1) <= st.index

    def can_overwrite(self, old: SSAValue) -> bool:
        """May the current op write into `old`'s buffer (see module docstring)?"""
        v = self.vmap.get(old)
        if v is None or isinstance(v, Pending):
            return isinstance(v, Pending)
        st = self.state
        assert st is not None
        r = self.root.get(v, v)
        aliases = self.aliases.get(r, [])
        if r in st.loop_roots:  # outer aliases are the loop's init/results, dead inside (see op_scf_for)
            aliases = [a for a in aliases if _block_of(a) is st.old]
        return r in st.writable and all(self.dead_after(a) for a in aliases)

    # -- driver ---------------------------------------------------------------
    def run_block(self, old: Block, new: Block, writable: Sequence[SSAValue] = ()) -> BlockState:
        outer = self.state
        st = BlockState(old, new)
        st.writable.update(writable)
        self.state = st
        for i, op in enumerate(old.ops):
            st.index = i
            self.translate(op)
        insert_deallocs(new, {r: a for r, a in st.owned.items() if r.owner is not None and r in self.root})
        self.state = outer
        return st

    def translate(self, op: Operation) -> None:
        assert self.state is not None
        block = self.state.new
        marker = block.last_op
        self._translate(op)
        inherit(ops_after(block, marker), op)  # what replaced `op` keeps its location

    def _translate(self, op: Operation) -> None:
        # an empty tensor of this block first used inside a region (a branch, a loop body) gets its buffer
        # here, in scope for later uses -- not in the region, which they cannot see
        for region in op.regions:
            for inner in region.walk():
                for v in inner.operands:
                    if isinstance(self.vmap.get(v), Pending):
                        self.m(v)
        handler = getattr(self, "op_" + op.name.replace(".", "_"), None)
        if handler is not None:
            handler(op)
            return
        if any(isinstance(t, TensorType) for t in (*op.operand_types, *op.result_types)):
            raise _fail(op, "no bufferization rule for this op on tensors")
        self.clone(op)

    def clone(self, op: Operation) -> None:
        mapper = {k: self.m(k) for k in self._free_values(op)}
        new = op.clone(value_mapper=mapper)
        self._emit_cloned(op, new)

    def _free_values(self, op: Operation) -> set[SSAValue]:
        return {v for o in op.walk() for v in o.operands if v in self.vmap}

    def _emit_cloned(self, op: Operation, new: Operation) -> None:
        assert self.state is not None
        self.state.new.add_op(new)
        for o, n in zip(op.results, new.results):
            self.vmap[o] = n

    # -- tensor producers -----------------------------------------------------
    def op_tensor_empty(self, op: tensor.EmptyOp) -> None:
        self.vmap[op.tensor] = Pending(op.tensor.type)

    def op_arith_constant(self, op: arith.ConstantOp) -> None:
        if not isinstance(op.result.type, TensorType):
            self.clone(op)
            return
        value = op.value
        assert isinstance(value, DenseIntOrFPElementsAttr)
        assert self.state is not None
        g = self.globals.get(self.state.new, value)
        self.bind(op.result, g, g)

    def op_tensor_from_elements(self, op: tensor.FromElementsOp) -> None:
        t = memref_type(op.result.type)
        buf = self.new_alloc(t)
        shape = t.get_shape()
        for i, v in enumerate(op.elements):
            idx, rem = [], i
            for s in reversed(shape):
                idx.append(rem % s)
                rem //= s
            assert self.state is not None
            ids = [self._index(k) for k in reversed(idx)]
            self.state.new.add_op(memref.StoreOp.get(self.m(v), buf, ids))
        self.bind(op.result, buf)

    def _index(self, k: int) -> SSAValue:
        from xdsl.dialects.builtin import IndexType, IntegerAttr

        c = arith.ConstantOp(IntegerAttr(k, IndexType()))
        assert self.state is not None
        self.state.new.add_op(c)
        return c.result

    def op_tensor_extract(self, op: tensor.ExtractOp) -> None:
        load = memref.LoadOp.get(self.m(op.tensor), [self.m(i) for i in op.indices])
        assert self.state is not None
        self.state.new.add_op(load)
        self.vmap[op.result] = load.res

    def op_tensor_insert(self, op: tensor.InsertOp) -> None:
        """A scalar store, in place when the destination may be overwritten."""
        assert self.state is not None
        dest = self.writable_copy(op.dest, needs_contents=True)
        self.state.new.add_op(memref.StoreOp.get(self.m(op.scalar), dest, [self.m(i) for i in op.indices]))
        self.bind(op.result, dest)

    def op_tensor_extract_slice(self, op: tensor.ExtractSliceOp) -> None:
        if op.offsets or op.sizes or op.strides:
            raise _fail(op, "dynamic slices are not supported")
        assert self.state is not None
        src = self.m(op.source)
        view = subview(self.state.new, src, op.static_offsets.get_values(), op.static_sizes.get_values(),
                       op.static_strides.get_values())
        self.bind(op.result, view, self.root.get(src, src))

    def op_tensor_insert_slice(self, op: tensor.InsertSliceOp) -> None:
        """Into the destination's buffer when it may be overwritten (else a copy of it first). Offsets
        known only at run time (hlo.dynamic_update_slice) write the window element by element."""
        if op.sizes or op.strides:
            raise _fail(op, "dynamic sizes or strides are not supported")
        assert self.state is not None
        dest = self.writable_copy(op.dest, needs_contents=True)
        if op.offsets:
            dynamic = iter(op.offsets)
            offsets = [self.m(next(dynamic)) if o == DYNAMIC_INDEX else o for o in op.static_offsets.get_values()]
            copy_to_offsets(self.state.new, self.m(op.source), dest, offsets, op.static_strides.get_values())
        else:
            view = subview(self.state.new, dest, op.static_offsets.get_values(), op.static_sizes.get_values(),
                           op.static_strides.get_values())
            copy(self.state.new, self.m(op.source), view)
        self.bind(op.result, dest)

    def writable_copy(self, old: SSAValue, needs_contents: bool) -> SSAValue:
        """A buffer holding `old` that the current op may overwrite."""
        if self.can_overwrite(old):
            return self.m(old)
        src = self.m(old)
        buf = self.new_alloc(identity_memref(src.type.element_type, src.type.get_shape()))  # type: ignore[attr-defined]
        if needs_contents:
            assert self.state is not None
            copy(self.state.new, src, buf)
        return buf

    def _reshape(self, op: Operation, cls) -> None:
        assert self.state is not None
        src = self.m(op.operands[0])
        if not is_identity(src.type):
            buf = self.new_alloc(identity_memref(src.type.element_type, src.type.get_shape()))  # type: ignore[attr-defined]
            copy(self.state.new, src, buf)
            src = buf
        props = {"reassociation": op.reassociation}
        if cls is memref.ExpandShapeOp:
            props["static_output_shape"] = op.static_output_shape
        new = cls.create(operands=[src], result_types=[memref_type(op.results[0].type)], properties=props)
        self.state.new.add_op(new)
        self.bind(op.results[0], new.results[0], self.root.get(src, src))

    def op_tensor_collapse_shape(self, op: Operation) -> None:
        self._reshape(op, memref.CollapseShapeOp)

    def op_tensor_expand_shape(self, op: Operation) -> None:
        self._reshape(op, memref.ExpandShapeOp)

    # -- linalg ---------------------------------------------------------------
    def _out_buffer(self, op: Operation, out: SSAValue, arg_used: bool, taken: Sequence[SSAValue] = ()) -> SSAValue:
        v = self.vmap.get(out)
        if isinstance(v, Pending):
            reuse = self._reusable_input(op, out, taken)
            if reuse is not None:
                return reuse
            return self._materialize(out, v)
        return self.writable_copy(out, needs_contents=arg_used)

    def _reusable_input(self, op: Operation, out: SSAValue, taken: Sequence[SSAValue] = ()) -> SSAValue | None:
        """An elementwise op may write over a dead input of the same type read
        through the identity map (and not aliased by another input), unless an
        earlier output of the same op already took that buffer."""
        if not isinstance(op, GenericOp) or any(it.data.value != "parallel" for it in op.iterator_types):
            return None
        maps = [m.data for m in op.indexing_maps]
        n_in = len(op.inputs)
        if not maps[n_in + list(op.outputs).index(out)].is_minor_identity():
            return None
        roots = [self.root.get(self.m(i), self.m(i)) for i in op.inputs]
        for k, x in enumerate(op.inputs):
            buf = self.m(x)
            if (maps[k].is_minor_identity() and len(maps[k].results) == maps[k].num_dims
                    and memref_type(out.type) == buf.type and roots.count(roots[k]) == 1
                    and buf not in taken and self.can_overwrite(x)):
                return buf
        return None

    def op_linalg_generic(self, op: GenericOp) -> None:
        self._structured(op)

    def op_linalg_matmul(self, op: Operation) -> None:
        self._structured(op)

    def _structured(self, op: Operation) -> None:
        assert self.state is not None
        body = op.regions[0].block
        n_in = len(op.inputs)
        ins = [self.m(x) for x in op.inputs]
        outs = []
        for j, o in enumerate(op.outputs):
            outs.append(self._out_buffer(op, o, bool(body.args[n_in + j].uses), outs))
        new_body = Block(arg_types=[a.type for a in body.args])
        for a, b in zip(body.args, new_body.args):
            self.vmap[a] = b
        self.run_block(body, new_body)
        if isinstance(op, GenericOp):
            region, maps, iterators = Region(new_body), op.indexing_maps, op.iterator_types
            new = like(("linalg.generic", len(ins), len(outs), maps, iterators),
                       lambda: GenericOp(ins, outs, region, maps, iterators), [*ins, *outs], regions=[region])
        else:
            new = type(op).create(operands=[*ins, *outs], properties=dict(op.properties),
                                  attributes=dict(op.attributes), regions=[Region(new_body)])
        self.state.new.add_op(new)
        for r, buf in zip(op.results, outs):
            self.bind(r, buf)

    def op_hlo_fft(self, op: Operation) -> None:
        """No linalg form: kernel calls on the buffers (passes/bufferize/fft.py)."""
        from minixla.passes.bufferize.fft import bufferize_fft

        bufferize_fft(self, op)

    # -- control flow ---------------------------------------------------------
    def _carried(self, inits: Sequence[SSAValue], loop: Operation) -> list[SSAValue]:
        """One buffer per loop-carried value: the init's own buffer if it is dead
        after the loop, used once as an init and not read inside the loop (the
        body would see it overwritten: e.g. a constant that CSE shared between
        the init and the body), else a copy."""
        used_inside = {v for region in loop.regions for o in region.walk() for v in o.operands}
        bufs: list[SSAValue] = []
        for x in inits:
            src = self.m(x)
            r = self.root.get(src, src)
            if (self.can_overwrite(x) and list(inits).count(x) == 1 and is_identity(src.type)
                    and r not in {self.root.get(b, b) for b in bufs}
                    and not any(a in used_inside for a in self.aliases.get(r, [x]))
                    and x not in used_inside):
                bufs.append(src)
            else:
                buf = self.new_alloc(identity_memref(src.type.element_type, src.type.get_shape()))  # type: ignore[attr-defined]
                assert self.state is not None
                copy(self.state.new, src, buf)
                bufs.append(buf)
        return bufs

    def _store_yield(self, values: Sequence[SSAValue], targets: Sequence[SSAValue]) -> None:
        """Copy yielded values into their target buffers (via temporaries when
        a value still reads another target)."""
        st = self.state
        assert st is not None
        target_roots = {self.root.get(t, t): t for t in targets}
        srcs = []
        for v, t in zip(values, targets):
            b = self.m(v)
            r = self.root.get(b, b)
            if b is t:
                srcs.append(None)
            elif r in target_roots and target_roots[r] is not t or (r in target_roots and b is not t):
                tmp = self.new_alloc(identity_memref(b.type.element_type, b.type.get_shape()))  # type: ignore[attr-defined]
                copy(st.new, b, tmp)
                srcs.append(tmp)
            else:
                srcs.append(b)
        for s, t in zip(srcs, targets):
            if s is not None:
                copy(st.new, s, t)

    def op_scf_while(self, op: scf.WhileOp) -> None:
        st = self.state
        assert st is not None
        bufs = self._carried(op.arguments, op)
        before, after = Block(), Block()
        for a, b in zip(op.before_region.block.args, bufs):
            self.bind(a, b)
        cond_op = op.before_region.block.last_op
        assert isinstance(cond_op, scf.ConditionOp)
        if list(cond_op.args) != list(op.before_region.block.args):
            raise _fail(op, "the condition region must forward its arguments unchanged")
        inner = BlockState(op.before_region.block, before)
        self.state = inner
        for i, o in enumerate(op.before_region.block.ops):
            inner.index = i
            if o is cond_op:
                before.add_op(scf.ConditionOp(self.m(cond_op.condition)))
            else:
                self.translate(o)
        insert_deallocs(before, inner.owned)
        self.state = st
        for a, b in zip(op.after_region.block.args, bufs):
            self.bind(a, b)
        # the body may write the carried buffers in place, as a for loop's (`loop`: only aliases inside count)
        self._run_yielding(op.after_region.block, after, bufs, writable=bufs, loop=True)
        st.new.add_op(scf.WhileOp([], [], Region(before), Region(after)))
        for r, b in zip(op.results, bufs):
            self.bind(r, b)

    def op_scf_for(self, op: scf.ForOp) -> None:
        """Tensor iter_args live in one buffer each for the whole loop (the
        init's, if it is dead after the loop and nothing aliasing it is read
        in the body); the body updates it in place (tensor.insert, linalg
        outs, nested loops), so scatter/sort loops cost no copies. Scalar
        iter_args stay iter_args."""
        st = self.state
        assert st is not None
        inits = list(op.iter_args)
        body = op.body.block
        is_t = [isinstance(v.type, TensorType) for v in inits]
        used_inside = {v for o in body.walk() for v in o.operands}
        bufs: list[SSAValue] = []
        for x in [v for v, t in zip(inits, is_t) if t]:
            src = self.m(x)
            r = self.root.get(src, src)
            if (self.can_overwrite(x) and inits.count(x) == 1 and is_identity(src.type)
                    and r not in {self.root.get(b, b) for b in bufs}
                    and not any(a in used_inside for a in self.aliases.get(r, []))):
                bufs.append(src)
            else:
                buf = self.new_alloc(identity_memref(src.type.element_type, src.type.get_shape()))  # type: ignore[attr-defined]
                copy(st.new, src, buf)
                bufs.append(buf)
        scalars = [v for v, t in zip(inits, is_t) if not t]
        new_body = Block(arg_types=[body.args[0].type, *[v.type for v in scalars]])
        self.vmap[body.args[0]] = new_body.args[0]
        it_bufs, it_scalars = iter(bufs), iter(new_body.args[1:])
        for a, t in zip(body.args[1:], is_t):
            if t:
                self.bind(a, next(it_bufs))
            else:
                self.vmap[a] = next(it_scalars)
        self._run_yielding(body, new_body, bufs, writable=bufs, loop=True, carried=is_t)
        new = scf.ForOp(self.m(op.lb), self.m(op.ub), self.m(op.step), [self.m(v) for v in scalars],
                        Region(new_body))
        st.new.add_op(new)
        it_bufs, it_res = iter(bufs), iter(new.results)
        for r, t in zip(op.results, is_t):
            if t:
                self.bind(r, next(it_bufs))
            else:
                self.vmap[r] = next(it_res)

    def _run_yielding(self, old: Block, new: Block, targets: Sequence[SSAValue], writable=(), loop: bool = False,
                      carried: Sequence[bool] | None = None) -> None:
        """Translate a region body whose `scf.yield` stores into `targets`
        (with `carried`, only the yielded values flagged True are tensors
        stored there; the others are yielded as scalars)."""
        outer = self.state
        st = BlockState(old, new)
        st.writable.update(writable)
        if loop:
            st.loop_roots.update(self.root.get(b, b) for b in writable)
        self.state = st
        for i, o in enumerate(old.ops):
            st.index = i
            if isinstance(o, scf.YieldOp) and carried is not None:
                vals = list(o.operands)
                self._store_yield([v for v, t in zip(vals, carried) if t], targets)
                new.add_op(scf.YieldOp(*[self.m(v) for v, t in zip(vals, carried) if not t]))
            elif isinstance(o, scf.YieldOp):
                self._store_yield(list(o.operands), targets)
                new.add_op(scf.YieldOp())
            else:
                self.translate(o)
        insert_deallocs(new, st.owned)
        self.state = outer

    def _result_buffers(self, op: Operation) -> list[SSAValue]:
        return [self.new_alloc(memref_type(r.type)) for r in op.results]

    def op_scf_if(self, op: scf.IfOp) -> None:
        assert self.state is not None
        bufs = self._result_buffers(op)
        regions = []
        for region in (op.true_region, op.false_region):
            block = Block()
            if region.blocks:
                self._run_yielding(region.block, block, bufs)
            else:
                block.add_op(scf.YieldOp())
            regions.append(Region(block))
        self.state.new.add_op(scf.IfOp(self.m(op.cond), [], regions[0], regions[1]))
        for r, b in zip(op.results, bufs):
            self.bind(r, b)

    def op_scf_index_switch(self, op: scf.IndexSwitchOp) -> None:
        assert self.state is not None
        bufs = self._result_buffers(op)

        def region(old: Region) -> Region:
            block = Block()
            self._run_yielding(old.block, block, bufs)
            return Region(block)

        new = scf.IndexSwitchOp(self.m(op.arg), op.cases, region(op.default_region),
                                [region(r) for r in op.case_regions], [])
        self.state.new.add_op(new)
        for r, b in zip(op.results, bufs):
            self.bind(r, b)

    # -- functions ------------------------------------------------------------
    def op_func_return(self, op: func.ReturnOp) -> None:
        st = self.state
        assert st is not None and self.outs is not None
        claimed: dict[SSAValue, SSAValue] = {}
        for v, out in zip(op.arguments, self.outs):
            b = self.m(v)
            b = claimed.get(b, b)
            r = self.root.get(b, b)
            owner = r.owner
            if (b is r and isinstance(owner, memref.AllocOp) and r in st.owned and r not in claimed
                    and b.type == out.type):
                claimed[r] = out
                r.replace_all_uses_with(out)
                owner.detach()
                owner.erase()
                st.owned.pop(r)
                self.root[out] = out
            else:
                copy(st.new, b, out)
        st.new.add_op(func.ReturnOp())

    outs: list[SSAValue] | None = None

    def run_func(self, fn: func.FuncOp) -> None:
        if not fn.body.blocks:  # external declarations (libm) take scalars
            return
        old = fn.body.block
        ins = [memref_type(a.type) for a in old.args]
        outs = [memref_type(t) for t in fn.function_type.outputs.data]
        if any(not isinstance(t, MemRefType) for t in outs):
            raise _fail(fn, "only tensor results are supported")
        new = Block(arg_types=ins + outs)
        for a, b in zip(old.args, new.args):
            self.vmap[a] = b
            self.root[b] = b
        self.outs = list(new.args[len(ins):])
        self.run_block(old, new)
        region = fn.body
        fn.detach_region(region)
        fn.add_region(Region(new))
        fn.function_type = FunctionType.from_lists(ins + outs, [])
        if fn.arg_attrs is not None:
            fn.arg_attrs = ArrayAttr([*fn.arg_attrs.data, *[DictionaryAttr({})] * len(outs)])
        if fn.res_attrs is not None:
            fn.res_attrs = None
        region.drop_all_references()


def bufferize_module(module: ModuleOp) -> None:
    globals_ = Globals(module)
    for fn in [o for o in module.ops if isinstance(o, func.FuncOp)]:
        Bufferizer(globals_).run_func(fn)
