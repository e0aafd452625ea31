"""`convert-linalg-to-blas`: float contractions on memrefs -> gemm calls.

Runs after `bufferize`, before `lower-linalg-to-loops`. A `linalg.matmul`
or a contraction `linalg.generic` (2 inputs, 1 output, projected-permutation
maps, body `out + a * b`, all f32 or all f64) becomes calls of

    minixla_sgemm / minixla_dgemm(order, transa, transb, m, n, k, alpha,
                                  a, lda, b, ldb, beta, c, ldc)

(the CBLAS ILP64 ABI; backends/cpu/blas.py registers the symbols), or of
`minixla_library_sgemm` / `minixla_library_dgemm` (the same ABI) for a product
the BLAS library computes faster than the generated gemm (thinner than MIN_DIM,
or under MIN_WORK multiply-adds): decided here from the static sizes, so a
module with only such products never needs the generated gemm (~0.15 s of
LLVM code generation per new process) built. With`
pointers passed as integer addresses (`memref.extract_aligned_pointer_as_index`
plus the static layout offset). Why: a tuned gemm is 100x+ faster than loops.

Loop dimensions are classified as batch (in a, b and c), m (a, c), n (b, c)
and k (reduction, in a and b). In each of m, n, k the dimensions whose strides
collapse into one (in both operands that have them) form the gemm's matrix
dimension; every other dimension of size > 1 (batch dims, and m/n/k dims that
do not collapse) becomes an `scf.for` around the call, each call
accumulating into c (beta = 1). Transposed operands (unit stride on the row
dimension) become CblasTrans; a column-major c computes c^T = b^T a^T. An
operand that has no unit stride leaves the op to the loops. When the op is
directly preceded by a zero fill of c and k is not looped, the fill is
dropped and the first call uses beta = 0. Ops with a zero-size dimension do
nothing (c keeps its init) and are erased. Ops inside `scf.parallel` are
skipped: gemm threads itself, and must not run inside our thread pool.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from xdsl.context import Context
from xdsl.dialects import arith, func, memref, scf
from xdsl.dialects.builtin import (
    Float32Type,
    Float64Type,
    FloatAttr,
    IndexType,
    IntegerAttr,
    MemRefType,
    ModuleOp,
    i32,
)
from xdsl.dialects.linalg.ops import FillOp, GenericOp, MatmulOp, YieldOp
from xdsl.ir import Attribute, Block, BlockArgument, Operation, OpResult, Region, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineMap
from xdsl.passes import ModulePass

from minixla.passes.im2col_blocking import block_patches
from minixla.passes.lower_to_llvm.threads import in_parallel_loop
from minixla.passes.lower_to_llvm.common import LoweringError, static_layout

SGEMM, DGEMM = "minixla_sgemm", "minixla_dgemm"
LIBRARY_SGEMM, LIBRARY_DGEMM = "minixla_library_sgemm", "minixla_library_dgemm"
#: every gemm symbol this pass calls, by element type
GEMM_SYMBOLS = {SGEMM: "f32", DGEMM: "f64", LIBRARY_SGEMM: "f32", LIBRARY_DGEMM: "f64"}
ROW_MAJOR, NO_TRANS, TRANS = 101, 111, 112
#: products this pass hands to the BLAS library (numpy's OpenBLAS, over minixla's threads): thinner than MIN_DIM,
#: or under MIN_WORK multiply-adds; the others call the dispatcher, which applies its own (lower) bound at run
#: time (gemm_driver.dispatch_ir: tests lower this one to reach the generated gemm with small products). Measured on this project's 2-core AVX-512 machine (session 9, quiet, one process):
#: the library was as fast or faster up to 512^3 (128x784x128: 104 vs 119 us; 256^3: 112 vs 120 us; 512^3: 770 vs
#: 785 us), the generated gemm faster from 1024^3 (5.80 vs 5.93 ms) and at 2048^3
MIN_DIM = 128
MIN_WORK = 1 << 28


def library_sized(m: int, n: int, k: int) -> bool:
    """Whether an m x n x k product calls the library's gemm directly."""
    return min(m, n) < MIN_DIM or m * n * k < MIN_WORK


@dataclass
class _Dim:
    size: int
    strides: dict[str, int]  # operand ("a", "b", "c") -> stride in elements; absent: not indexed


@dataclass
class _Matrix:
    """One gemm operand: `rows x cols`, element (i, j) at i*rs + j*cs."""
    rows: int
    rs: int
    cols: int
    cs: int

    def t(self) -> _Matrix:
        return _Matrix(self.cols, self.cs, self.rows, self.rs)

    def blas(self) -> tuple[int, int] | None:
        """(transpose flag, leading dimension) for a row-major CBLAS call, if any."""
        if self.cols == 1 or self.cs == 1:
            ld = self.rs if self.rows > 1 else max(1, self.cols)
            return (NO_TRANS, ld) if ld >= max(1, self.cols) else None
        if self.rows == 1 or self.rs == 1:
            ld = self.cs if self.cols > 1 else max(1, self.rows)
            return (TRANS, ld) if ld >= max(1, self.rows) else None
        return None


@dataclass
class GemmPlan:
    """Everything needed to emit the calls for one op."""
    elem: Attribute
    a: SSAValue
    b: SSAValue
    c: SSAValue
    offsets: dict[str, int]
    m: int
    n: int
    k: int
    ta: int
    lda: int
    tb: int
    ldb: int
    ldc: int
    outer: list[_Dim] = field(default_factory=list)  # looped dims (size > 1)
    k_looped: bool = False
    empty: bool = False


# ---- matching ------------------------------------------------------------------------------
def _is_mac(block: Block) -> bool:
    """The body is `yield out + a * b` (either operand order), in floats."""
    ops = list(block.ops)
    if len(block.args) != 3 or len(ops) != 3:
        return False
    mul, add, yld = ops
    x, y, acc = block.args
    return (isinstance(mul, arith.MulfOp) and isinstance(add, arith.AddfOp) and isinstance(yld, YieldOp)
            and {mul.lhs, mul.rhs} == {x, y} and mul.lhs is not mul.rhs
            and {add.lhs, add.rhs} == {acc, mul.result} and list(yld.operands) == [add.result])


def _collapse(dims: list[_Dim], main: str, other: str) -> tuple[_Dim | None, list[_Dim]]:
    """The longest run of `dims` (innermost first by `main` stride) whose
    strides collapse in both operands, as one dim; and the rest."""
    dims = sorted((d for d in dims if d.size > 1), key=lambda d: d.strides[main], reverse=True)
    if not dims:
        return None, []
    run = [dims[-1]]
    for d in reversed(dims[:-1]):
        inner = run[-1]
        if all(d.strides[o] == inner.strides[o] * inner.size for o in (main, other)):
            run.append(d)
        else:
            break
    size = 1
    for d in run:
        size *= d.size
    inner = run[0]
    return _Dim(size, {o: inner.strides[o] for o in (main, other)}), dims[:len(dims) - len(run)]


def plan_gemm(op: Operation) -> GemmPlan | None:
    """The gemm form of `op`, or None if it has none (it then stays for the loops)."""
    if not isinstance(op, (GenericOp, MatmulOp)) or len(op.inputs) != 2 or len(op.outputs) != 1:
        return None
    if in_parallel_loop(op) or not _is_mac(op.body.block):
        return None
    a, b, c = op.inputs[0], op.inputs[1], op.outputs[0]
    types = [v.type for v in (a, b, c)]
    if not all(isinstance(t, MemRefType) for t in types):
        return None
    elem = types[0].element_type  # type: ignore[union-attr]
    if not isinstance(elem, (Float32Type, Float64Type)) or any(t.element_type != elem for t in types):  # type: ignore
        return None
    try:
        layouts = {name: static_layout(t) for name, t in zip("abc", types)}  # type: ignore[arg-type]
    except LoweringError:
        return None
    maps = op.get_indexing_maps()
    iters = [str(it.data) for it in op.get_iterator_types()] if isinstance(op, GenericOp) else \
        ["parallel", "parallel", "reduction"]
    dims = [_Dim(-1, {}) for _ in iters]
    for name, amap, t in zip("abc", maps, types):
        shape = t.get_shape()  # type: ignore[union-attr]
        for pos, expr in enumerate(amap.data.results):
            if not isinstance(expr, AffineDimExpr) or name in dims[expr.position].strides:
                return None
            d = dims[expr.position]
            d.size, d.strides[name] = shape[pos], layouts[name][0][pos]
    groups: dict[str, list[_Dim]] = {"batch": [], "m": [], "n": [], "k": []}
    for d, it in zip(dims, iters):
        if d.size == 1:
            continue  # index 0 only: no offset, nothing to loop (e.g. a 1x1 window)
        key = "".join(sorted(d.strides))
        group = {("parallel", "abc"): "batch", ("parallel", "ac"): "m", ("parallel", "bc"): "n",
                 ("reduction", "ab"): "k"}.get((it, key))
        if group is None:
            return None  # e.g. a broadcast into c or a reduction over one input only
        groups[group].append(d)
    offsets = {name: layouts[name][1] for name in "abc"}
    if any(d.size == 0 for d in dims):
        return GemmPlan(elem, a, b, c, offsets, 0, 0, 0, NO_TRANS, 1, NO_TRANS, 1, 1, empty=True)
    mdim, mrest = _collapse(groups["m"], "c", "a")
    ndim, nrest = _collapse(groups["n"], "c", "b")
    kdim, krest = _collapse(groups["k"], "a", "b")
    one = _Dim(1, {"a": 0, "b": 0, "c": 0})
    mdim, ndim, kdim = mdim or one, ndim or one, kdim or one
    ma = _Matrix(mdim.size, mdim.strides["a"], kdim.size, kdim.strides["a"])
    mb = _Matrix(kdim.size, kdim.strides["b"], ndim.size, ndim.strides["b"])
    mc = _Matrix(mdim.size, mdim.strides["c"], ndim.size, ndim.strides["c"])
    swap = False
    if not (mc.cols == 1 or mc.cs == 1):  # column-major c: c^T = b^T a^T
        swap, ma, mb, mc = True, mb.t(), ma.t(), mc.t()
    fa, fb, fc = ma.blas(), mb.blas(), mc.blas()
    if fa is None or fb is None or fc is None or fc[0] != NO_TRANS:
        return None
    if swap:
        a, b = b, a
        offsets = {"a": offsets["b"], "b": offsets["a"], "c": offsets["c"]}
    outer = [_Dim(d.size, {o: d.strides.get(o, 0) for o in "abc"})
             for d in groups["batch"] + mrest + nrest + krest if d.size > 1]
    if swap:
        outer = [_Dim(d.size, {"a": d.strides["b"], "b": d.strides["a"], "c": d.strides["c"]}) for d in outer]
    return GemmPlan(elem, a, b, c, offsets, mc.rows, mc.cols, ma.cols, fa[0], fa[1], fb[0], fb[1], fc[1],
                    outer, k_looped=bool(krest))


# ---- emission ---------------------------------------------------------------------------------
def _zero_fill_before(op: Operation, c: SSAValue) -> Operation | None:
    """The op just before `op`, if it fills all of `c` with +0.0."""
    prev = op.prev_op
    if isinstance(prev, FillOp):
        if list(prev.outputs) == [c] and _is_zero(prev.inputs[0]):
            return prev
        return None
    if not isinstance(prev, GenericOp) or prev.inputs or list(prev.outputs) != [c]:
        return None
    if any(str(it.data) != "parallel" for it in prev.iterator_types) or \
            not all(m.data == AffineMap.identity(m.data.num_dims) for m in prev.indexing_maps):
        return None
    ops = list(prev.body.block.ops)
    if len(ops) != 1 or not isinstance(ops[0], YieldOp) or not _is_zero(ops[0].operands[0]):
        return None
    return prev


def _is_zero(v: SSAValue) -> bool:
    if isinstance(v, BlockArgument) or not isinstance(v, OpResult) or not isinstance(v.op, arith.ConstantOp):
        return False
    attr = v.op.value
    return isinstance(attr, FloatAttr) and attr.value.data == 0.0 and str(attr.value.data) == "0.0"


class _Builder:
    """Inserts ops before `anchor` (moved into each new loop body)."""

    def __init__(self, anchor: Operation):
        self.anchor = anchor
        self.top = anchor  # constants go here, before any loop, once each
        self.consts: dict[tuple[object, Attribute], SSAValue] = {}

    def __call__(self, op: Operation) -> SSAValue | None:
        block = self.anchor.parent_block()
        assert block is not None
        block.insert_op_before(op, self.anchor)
        return op.results[0] if op.results else None

    def const(self, attr: IntegerAttr | FloatAttr) -> SSAValue:
        key = (attr.value.data, attr.type)
        if key not in self.consts:
            op = arith.ConstantOp(attr)
            self.top.parent_block().insert_op_before(op, self.top)  # type: ignore[union-attr]
            self.consts[key] = op.result
        return self.consts[key]

    def index(self, v: int) -> SSAValue:
        return self.const(IntegerAttr(v, IndexType()))


def emit_gemm(plan: GemmPlan, op: Operation, extra: dict[SSAValue, SSAValue] | None = None,
              beta_zero: bool = False) -> None:
    """Replace `op` by the plan's calls (and loops). `extra`: byte offsets
    (index values) added to an operand's address (blocked callers pass
    zero-offset views); `beta_zero`: c's old contents are not read."""
    if plan.empty:
        op.detach()
        op.erase()
        return
    # c is written once per element when k is not looped: a zero fill before is beta = 0
    fill = None if plan.k_looped else _zero_fill_before(op, plan.c)
    beta_zero = beta_zero or fill is not None
    e = _Builder(op)
    f64 = isinstance(plan.elem, Float64Type)
    esize = 8 if f64 else 4
    bases = {name: e(memref.ExtractAlignedPointerAsIndexOp.get(v))
             for name, v in zip("abc", (plan.a, plan.b, plan.c))}
    ivs: list[SSAValue] = []
    for d in plan.outer:  # nested scf.for over the looped dims; the call goes in the innermost body
        body = Block(arg_types=[IndexType()])
        body.add_op(scf.YieldOp())
        loop = scf.ForOp(e.index(0), e.index(d.size), e.index(1), [], Region(body))
        e(loop)
        if not ivs:
            e.top = loop  # later constants must dominate the loops
        e.anchor = body.last_op  # type: ignore[assignment]
        ivs.append(body.args[0])

    values = {"a": plan.a, "b": plan.b, "c": plan.c}

    def address(name: str) -> SSAValue:
        addr = bases[name]
        if extra and values[name] in extra:
            addr = e(arith.AddiOp(addr, extra[values[name]]))
        if plan.offsets[name]:
            addr = e(arith.AddiOp(addr, e.index(plan.offsets[name] * esize)))
        for iv, d in zip(ivs, plan.outer):
            if d.strides[name]:
                addr = e(arith.AddiOp(addr, e(arith.MuliOp(iv, e.index(d.strides[name] * esize)))))
        return addr  # type: ignore[return-value]

    def flt(v: float) -> SSAValue:
        return e.const(FloatAttr(v, plan.elem))  # type: ignore[arg-type]

    def i32c(v: int) -> SSAValue:
        return e.const(IntegerAttr(v, i32))

    args = [i32c(ROW_MAJOR), i32c(plan.ta), i32c(plan.tb), e.index(plan.m), e.index(plan.n), e.index(plan.k),
            flt(1.0), address("a"), e.index(plan.lda), address("b"), e.index(plan.ldb),
            flt(0.0 if beta_zero else 1.0), address("c"), e.index(plan.ldc)]
    if library_sized(plan.m, plan.n, plan.k):
        callee = LIBRARY_DGEMM if f64 else LIBRARY_SGEMM
    else:
        callee = DGEMM if f64 else SGEMM
    e(func.CallOp(callee, args, []))
    op.detach()
    op.erase()
    if fill is not None:
        fill.detach()
        fill.erase()


def gemm_signature(elem: Attribute) -> tuple[list[Attribute], list[Attribute]]:
    idx = IndexType()
    return [i32, i32, i32, idx, idx, idx, elem, idx, idx, idx, idx, elem, idx, idx], []


@dataclass(frozen=True)
class ConvertLinalgToBlas(ModulePass):
    """f32/f64 matmuls and gemm-shaped contractions on memrefs -> BLAS gemm calls."""

    name = "convert-linalg-to-blas"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for fn in [o for o in op.ops if isinstance(o, func.FuncOp) and o.body.blocks]:
            for lop in [o for o in fn.walk() if isinstance(o, (GenericOp, MatmulOp))]:
                if isinstance(lop, GenericOp) and block_patches(lop, plan_gemm, emit_gemm, _zero_fill_before):
                    continue
                plan = plan_gemm(lop)
                if plan is not None:
                    emit_gemm(plan, lop)
        used = {o.callee.root_reference.data for fn in op.ops if isinstance(fn, func.FuncOp) and fn.body.blocks
                for o in fn.walk() if isinstance(o, func.CallOp)} & GEMM_SYMBOLS.keys()
        declared = {o.sym_name.data for o in op.ops if isinstance(o, func.FuncOp)}
        for name in sorted(used - declared):
            elem = Float64Type() if GEMM_SYMBOLS[name] == "f64" else Float32Type()
            op.body.block.add_op(func.FuncOp.external(name, *gemm_signature(elem)))


__all__ = ["GEMM_SYMBOLS", "ConvertLinalgToBlas", "GemmPlan", "library_sized", "plan_gemm"]
