"""`hlo-complex-to-real`: complex tensors become (real, imaginary) pairs of float tensors.

The first step of the CPU pipeline for complex<f32>/complex<f64>: below it, every value
is a float, so fusion, linalg, loops and LLVM need nothing complex-specific and each
complex value is a pair of floats down to the registers.

* Function boundary: a `tensor<Sxcomplex<F>>` argument or result becomes
  `tensor<Sx2xF>` -- numpy's interleaved (re, im) layout, so the CPU backend passes
  complex64/complex128 arrays as float views without copying (it keeps the hlo function
  type from before the pipeline, so it knows which slots are complex).
* Elementwise math: passes/complex_math.py (float formulas on the pairs).
* Data movement (reshape, slice, gather, pad, ...): the same op on each part.
* dot_general and convolution: four real products (bilinear in each operand).
* Ops with regions (reduce, reduce_window, while, if, case, scatter, sort): each complex
  operand, result and block argument becomes two, in place (sort's comparator: lhs_re,
  rhs_re, lhs_im, rhs_im); the bodies convert too.
* `real`/`imag`/`complex` pick or pair the parts; `bitcast_convert` goes through the
  interleaved layout, and so does `fft` (its `{interleaved}` form: the CPU kernel reads and
  writes interleaved buffers).
* `triangular_solve` and `cholesky`: first complex hlo ops (a loop of substitutions,
  passes/complex_linalg.py), which are then converted here like the user's.
An op this pass does not know with a complex operand is a located error.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import ComplexType, DenseIntOrFPElementsAttr, ModuleOp, TensorType, UnitAttr, i32
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.utils.exceptions import DiagnosticException

from minixla.dialects import hlo
from minixla.dialects.diagnostics import op_position
from minixla.dialects.hlo_ops.syntax import i64_array, i64_attr
from minixla.dialects.numpy_types import dense_attr_to_numpy, numpy_to_dense_attr
from minixla.passes.complex_linalg import EXPANSIONS
from minixla.passes.complex_math import BINARY, UNARY, Builder, Parts, cabs, ccompare, cpick, widened

PASS_NAME = "hlo-complex-to-real"

#: data movement: the same op on the real and on the imaginary part
PER_PART = frozenset({"reshape", "transpose", "slice", "concatenate", "broadcast_in_dim", "reverse", "gather",
                      "dynamic_slice", "dynamic_update_slice", "pad", "copy"})
#: ops with regions (or variadic values) whose complex operands, results and block args split in place
IN_PLACE = frozenset({"reduce", "reduce_window", "while", "if", "case", "scatter", "optimization_barrier",
                      "return", "sort"})
#: bilinear contractions: (a + ib)(c + id) = (ac - bd) + i(ad + bc), each product one op
BILINEAR = frozenset({"dot_general", "convolution"})


class ComplexLoweringError(DiagnosticException):
    """A complex value reaches an op this pass cannot split."""


def is_complex_tensor(t: Attribute) -> bool:
    return isinstance(t, TensorType) and isinstance(t.element_type, ComplexType)


def part_type(t: Attribute) -> TensorType:
    assert isinstance(t, TensorType) and isinstance(t.element_type, ComplexType)
    return TensorType(t.element_type.element_type, t.get_shape())


def packed_type(t: Attribute) -> TensorType:
    """tensor<Sxcomplex<F>> -> tensor<Sx2xF>: numpy's memory layout of complex arrays."""
    assert isinstance(t, TensorType) and isinstance(t.element_type, ComplexType)
    return TensorType(t.element_type.element_type, [*t.get_shape(), 2])


def _error(op: Operation, why: str) -> ComplexLoweringError:
    filename, line, col = op_position(op)
    where = f"{filename}:{line}:{col}: " if filename else ""
    return ComplexLoweringError(f"{where}{PASS_NAME}: cannot lower '{op.name}' on complex values: {why}")


def _mnemonic(op: Operation) -> str | None:
    return op.name[4:] if op.name.startswith("hlo.") else None


@dataclass
class _Converter:
    parts: dict[SSAValue, Parts]
    #: replaced ops and complex block arguments, erased once everything is converted
    dead: list[Operation]
    dead_args: list[tuple[Block, SSAValue]]
    #: parts sliced out of an interleaved tensor, to that tensor: packing them again is a no-op
    packed: dict[Parts, SSAValue] = field(default_factory=dict)

    def get(self, v: SSAValue) -> Parts:
        return self.parts[v]

    # -- boundaries ---------------------------------------------------------
    def unpack(self, b: Builder, packed: SSAValue, t: TensorType) -> Parts:
        shape = list(t.get_shape())
        pt = part_type(t)
        out = []
        for k in (0, 1):
            piece = b.op("slice", packed, result_type=TensorType(pt.element_type, [*shape, 1]),
                         start_indices=i64_array([0] * len(shape) + [k]),
                         limit_indices=i64_array(shape + [k + 1]), strides=i64_array([1] * (len(shape) + 1)))
            out.append(b.op("reshape", piece, result_type=pt))
        self.packed[out[0], out[1]] = packed
        return out[0], out[1]

    def pack(self, b: Builder, parts: Parts) -> SSAValue:
        """(re, im) -> tensor<Sx2xF> as select(iota == 0, re, im) over broadcasts: all fusible, so
        the parts' math and the interleaving run as one loop writing the result in place."""
        if parts in self.packed:
            return self.packed[parts]
        pt = parts[0].type
        assert isinstance(pt, TensorType)
        shape = list(pt.get_shape())
        packed = TensorType(pt.element_type, [*shape, 2])
        dims = i64_array(list(range(len(shape))))
        re, im = (b.op("broadcast_in_dim", p, result_type=packed, broadcast_dimensions=dims) for p in parts)
        index = b.insert(hlo.IotaOp.create(result_types=[TensorType(i32, [*shape, 2])],
                                           properties={"iota_dimension": i64_attr(len(shape))}))
        zero = b.insert(hlo.ConstantOp(DenseIntOrFPElementsAttr.from_list(TensorType(i32, []), [0])))
        zeros = b.op("broadcast_in_dim", zero, result_type=index.type, broadcast_dimensions=i64_array([]))
        return b.select(b.cmp("EQ", index, zeros), re, im)

    # -- blocks -------------------------------------------------------------
    def convert_block(self, block: Block, packed_args: bool) -> None:
        old = [a for a in block.args if is_complex_tensor(a.type)]
        first = block.first_op
        for arg in old:
            t = arg.type
            if packed_args:
                new = block.insert_arg(packed_type(t), arg.index)
                new.name_hint = arg.name_hint
                assert first is not None
                self.parts[arg] = self.unpack(Builder(first), new, t)
            else:
                re = block.insert_arg(part_type(t), arg.index)
                im = block.insert_arg(part_type(t), arg.index)
                self.parts[arg] = (re, im)
        for op in list(block.ops):
            self.convert_op(op, packed_args)
        self.dead_args += [(block, arg) for arg in old]

    def expand(self, values) -> list[SSAValue]:
        out: list[SSAValue] = []
        for v in values:
            out.extend(self.get(v) if v in self.parts else (v,))
        return out

    # -- ops ----------------------------------------------------------------
    def convert_sort_comparator(self, block: Block) -> None:
        """The comparator takes (lhs, rhs) per operand: a complex pair becomes lhs_re, rhs_re,
        lhs_im, rhs_im, matching the sort's operands re, im."""
        args = list(block.args)
        for lhs, rhs in zip(args[0::2], args[1::2]):
            if is_complex_tensor(lhs.type):
                pt, i = part_type(lhs.type), lhs.index
                lre, rre, lim, rim = (block.insert_arg(pt, i + k) for k in range(4))
                self.parts[lhs], self.parts[rhs] = (lre, lim), (rre, rim)
                self.dead_args += [(block, lhs), (block, rhs)]
        for op in list(block.ops):
            self.convert_op(op, False)

    def convert_op(self, op: Operation, top_level: bool) -> None:
        m = _mnemonic(op)
        for region in op.regions:
            for block in region.blocks:
                if m == "sort":
                    self.convert_sort_comparator(block)
                else:
                    self.convert_block(block, packed_args=False)
        if m in ("real", "imag") and not is_complex_tensor(op.operands[0].type):
            b = Builder(op)
            x = op.operands[0]
            op.results[0].replace_all_uses_with(x if m == "real" else b.const(0.0, x))
            self.dead.append(op)
            return
        complex_in = any(v in self.parts for v in op.operands)
        complex_out = any(is_complex_tensor(r.type) for r in op.results)
        if not (complex_in or complex_out):
            return
        if isinstance(op, func.ReturnOp) and top_level:
            b = Builder(op)
            new = [self.pack(b, self.get(v)) if v in self.parts else v for v in op.operands]
            b.insert(func.ReturnOp(*new))
            self.dead.append(op)
            return
        if isinstance(op, func.ReturnOp):
            Builder(op).insert(func.ReturnOp(*self.expand(op.operands)))
            self.dead.append(op)
            return
        if m is None:
            raise _error(op, "only hlo ops (and func.return) are supported")
        results = self.rule(op, m)
        for r, new in zip(op.results, results):
            if is_complex_tensor(r.type):
                self.parts[r] = new
            else:
                r.replace_all_uses_with(new)
        self.dead.append(op)

    def rule(self, op: Operation, m: str) -> list:
        b = Builder(op)
        args = op.operands
        t = op.results[0].type if op.results else None
        if m == "constant":
            arr = dense_attr_to_numpy(op.value)
            pt = part_type(t)
            return [tuple(b.insert(hlo.ConstantOp(numpy_to_dense_attr(p, pt))) for p in (arr.real, arr.imag))]
        if m == "iota":
            pt = part_type(t)
            re = b.insert(hlo.IotaOp.create(result_types=[pt], properties=dict(op.properties)))
            return [(re, b.const(0.0, re))]
        if m == "complex":
            return [(args[0], args[1])]
        if m == "real":
            return [self.get(args[0])[0]]
        if m == "imag":
            return [self.get(args[0])[1]]
        if m in ("add", "subtract"):
            x, y = self.get(args[0]), self.get(args[1])
            return [(b.op(m, x[0], y[0]), b.op(m, x[1], y[1]))]
        if m == "negate":
            x = self.get(args[0])
            return [(b.neg(x[0]), b.neg(x[1]))]
        if m == "abs":
            return [widened(b, cabs, self.get(args[0]))]
        if m in UNARY:
            return [widened(b, UNARY[m], self.get(args[0]))]
        if m in BINARY:
            return [widened(b, BINARY[m], self.get(args[0]), self.get(args[1]))]
        if m == "clamp":
            lo, x, hi = (self.widen_scalar(b, v, t) for v in args)
            return [cpick(b, cpick(b, x, lo, "GT"), hi, "LT")]
        if m == "compare":
            return [ccompare(b, self.get(args[0]), self.get(args[1]), op.comparison_direction.data.value)]
        if m == "select":
            x, y = self.get(args[1]), self.get(args[2])
            return [(b.select(args[0], x[0], y[0]), b.select(args[0], x[1], y[1]))]
        if m == "convert":
            return [self.convert(b, op)]
        if m == "bitcast_convert":
            src = self.pack(b, self.get(args[0]))
            out = b.insert(hlo.BitcastConvertOp.create(operands=[src], result_types=[packed_type(t)]))
            return [self.unpack(b, out, t)]
        if m == "fft":
            return [self.fft(b, op)]
        if m in EXPANSIONS:
            return [self.expand_op(b, op, EXPANSIONS[m])]
        if m in PER_PART:
            return [self.per_part(b, op)]
        if m in BILINEAR:
            return [self.bilinear(b, op)]
        if m in IN_PLACE:
            return self.in_place(b, op)
        raise _error(op, "this op has no complex lowering on the CPU backend")

    def widen_scalar(self, b: Builder, v: SSAValue, t: Attribute) -> Parts:
        """The parts of `v`, broadcast to `t`'s shape when `v` is a scalar (clamp's bounds)."""
        re, im = self.get(v)
        pt = part_type(t)
        if re.type == pt:
            return re, im
        dims = i64_array([])
        return tuple(b.op("broadcast_in_dim", p, result_type=pt, broadcast_dimensions=dims) for p in (re, im))

    def convert(self, b: Builder, op: Operation):
        x, t = op.operands[0], op.results[0].type
        if x in self.parts and is_complex_tensor(t):
            pt = part_type(t)
            re, im = self.get(x)
            return b.convert(re, pt), b.convert(im, pt)
        if x in self.parts:  # complex -> real type: the real part (spec: imaginary part dropped)
            return b.convert(self.get(x)[0], t)
        re = b.convert(x, part_type(t))
        return re, b.const(0.0, re)

    def fft(self, b: Builder, op: Operation):
        """The `{interleaved}` fft on the packed operand; a complex result is unpacked again."""
        x, t = op.operands[0], op.results[0].type
        src = self.pack(b, self.get(x)) if x in self.parts else x
        new = hlo.FftOp.create(operands=[src], result_types=[packed_type(t) if is_complex_tensor(t) else t],
                               properties=dict(op.properties, interleaved=UnitAttr()))
        new.location = op.location  # the kernel call's diagnostics name the user's op
        out = b.insert(new)
        return self.unpack(b, out, t) if is_complex_tensor(t) else out

    def expand_op(self, b: Builder, op: Operation, build) -> Parts:
        """`build` `op` from complex hlo ops before it, then convert those like the user's ops."""
        before = op.prev_op
        result = build(b, op)
        new, o = [], before.next_op if before is not None else op.parent_block().first_op
        while o is not op:
            new.append(o)
            o = o.next_op
        for o in new:
            for inner in o.walk():  # diagnostics further down name the user's op
                inner.location = op.location
            self.convert_op(o, False)
        return self.get(result)

    def per_part(self, b: Builder, op: Operation) -> Parts:
        out = []
        for k in (0, 1):
            operands = [self.get(v)[k] if v in self.parts else v for v in op.operands]
            new = op.__class__.create(operands=operands, result_types=[part_type(op.results[0].type)],
                                      properties=dict(op.properties), attributes=dict(op.attributes))
            out.append(b.insert(new))
        return out[0], out[1]

    def bilinear(self, b: Builder, op: Operation) -> Parts:
        lhs, rhs = op.operands[0], op.operands[1]
        rest = list(op.operands[2:])
        pt = part_type(op.results[0].type)

        def product(x: SSAValue, y: SSAValue) -> SSAValue:
            return b.insert(op.__class__.create(operands=[x, y, *rest], result_types=[pt],
                                                properties=dict(op.properties), attributes=dict(op.attributes)))

        if lhs in self.parts and rhs in self.parts:
            (p, q), (r, s) = self.get(lhs), self.get(rhs)
            return b.sub(product(p, r), product(q, s)), b.add(product(p, s), product(q, r))
        if lhs in self.parts:
            p, q = self.get(lhs)
            return product(p, rhs), product(q, rhs)
        if rhs in self.parts:
            r, s = self.get(rhs)
            return product(lhs, r), product(lhs, s)
        raise _error(op, "a complex result needs a complex operand")

    def in_place(self, b: Builder, op: Operation) -> list:
        """Every complex operand and result becomes two (re, im), in order; the regions
        (already converted) move to the new op."""
        result_types: list[Attribute] = []
        for r in op.results:
            result_types.extend([part_type(r.type)] * 2 if is_complex_tensor(r.type) else [r.type])
        regions = [op.detach_region(r) for r in list(op.regions)]
        new = op.__class__.create(operands=self.expand(op.operands), result_types=result_types,
                                  properties=dict(op.properties), attributes=dict(op.attributes), regions=regions)
        b.insert(new)
        out, i = [], 0
        for r in op.results:
            if is_complex_tensor(r.type):
                out.append((new.results[i], new.results[i + 1]))
                i += 2
            else:
                out.append(new.results[i])
                i += 1
        return out


def _convert_function(fn: func.FuncOp, fuse: bool) -> None:
    conv = _Converter({}, [], [])
    conv.convert_block(fn.body.blocks[0], packed_args=True)
    for op in reversed(conv.dead):
        op.detach()
        op.erase(safe_erase=False)
    for block, arg in conv.dead_args:
        block.erase_arg(arg)
    if fuse:  # each complex op is tens of float ops: one loop nest per chain, not per float op
        from minixla.passes.hlo_opt.fusion import CONTAINERS, fuse_block

        for block in [b for o in fn.walk() if o.name in CONTAINERS or o is fn for r in o.regions for b in r.blocks]:
            fuse_block(block)
    ft = fn.function_type
    fn.function_type = func.FunctionType.from_lists(
        [packed_type(t) if is_complex_tensor(t) else t for t in ft.inputs.data],
        [packed_type(t) if is_complex_tensor(t) else t for t in ft.outputs.data])


def _mentions_complex(fn: func.FuncOp) -> bool:
    """A complex type in the signature or on any value, or a real/imag op (which also lowers
    on float operands)."""
    ft = fn.function_type
    return (any(is_complex_tensor(t) for t in (*ft.inputs.data, *ft.outputs.data))
            or any(_mnemonic(op) in ("real", "imag") or any(is_complex_tensor(r.type) for r in op.results)
                   for op in fn.walk()))


@dataclass(frozen=True)
class HloComplexToReal(ModulePass):
    """Complex tensors -> pairs of float tensors (interleaved at function boundaries); `fuse`
    runs hlo-fusion on the converted functions (off: see the plain expansion)."""

    name = PASS_NAME
    fuse: bool = True

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for fn in [f for f in op.walk() if isinstance(f, func.FuncOp) and f.body.blocks]:
            if _mentions_complex(fn):
                for call in fn.walk():
                    if isinstance(call, func.CallOp) and any(
                            is_complex_tensor(v.type) for v in (*call.operands, *call.results)):
                        raise _error(call, "calls with complex values must be inlined first (run `inline`)")
                _convert_function(fn, self.fuse)
