"""`hlo.fft` on buffers: calls of the compiled FFT kernel (ABI and plan: passes/fft_plan.py).

The operand's buffer is read in place when it is dense row-major (else copied
once); the result gets a fresh buffer; IRFFT over several axes also gets a
complex scratch of the operand's shape. Each buffer crosses the call as a
`memref<1xT>` reinterpret_cast of itself (a memref is its base pointer below
bufferize), so the kernel has one declaration per element type whatever the
shapes; the casts count as uses of the buffers, so deallocation comes after
the calls. The kernel's status (1: no memory for its scratch) is not checked.
"""

from __future__ import annotations

from xdsl.dialects import arith, func, memref
from xdsl.dialects.builtin import ComplexType, Float64Type, IndexType, IntegerAttr, MemRefType, ModuleOp, i32
from xdsl.ir import Attribute, SSAValue

from minixla.dialects.hlo_ops.base import ints
from minixla.passes.bufferize.memory import copy, is_identity, memref_type
from minixla.passes.fft_plan import KINDS, plan, symbol


def _group(elem: Attribute) -> tuple[str, Attribute, Attribute]:
    """("c64" | "c128", the real type, the complex type) of an fft operand or result element type."""
    real = elem.element_type if isinstance(elem, ComplexType) else elem
    return ("c128" if isinstance(real, Float64Type) else "c64"), real, ComplexType(real)


def signature(name: str, real: Attribute, cplx: Attribute) -> tuple[list[Attribute], list[Attribute]]:
    src = real if name.startswith("minixla_rfft") else cplx
    dst = real if name.startswith("minixla_irfft") else cplx
    idx = IndexType()
    return [MemRefType(src, [1]), MemRefType(dst, [1]), idx, idx, idx, i32], [i32]


def bufferize_fft(bz, op) -> None:
    """Emit `op`'s kernel calls into the bufferizer's current block and bind its result."""
    st = bz.state
    block = st.new
    x, r = op.operand, op.result
    g, real, cplx = _group(x.type.element_type)
    src = bz.m(x)
    if not is_identity(src.type):
        dense = bz.new_alloc(memref_type(x.type))
        copy(block, src, dense)
        src = dense
    out = bz.new_alloc(memref_type(r.type))
    in_shape, out_shape = tuple(x.type.get_shape()), tuple(r.type.get_shape())
    calls = plan(op.fft_type.data.value, in_shape, out_shape, ints(op.fft_length))
    bufs = {"in": src, "out": out}
    if any("tmp" in (c.src, c.dst) for c in calls):
        bufs["tmp"] = bz.new_alloc(MemRefType(cplx, list(in_shape)))

    def const(v: int, t: Attribute) -> SSAValue:
        c = arith.ConstantOp(IntegerAttr(v, t))
        block.add_op(c)
        return c.result

    def as_1(buf: SSAValue) -> SSAValue:
        """A `memref<1xT>` view of `buf`, registered as an alias of its root."""
        cast = memref.ReinterpretCastOp(buf, [], [], [], [0], [1], [1], MemRefType(buf.type.element_type, [1]))
        block.add_op(cast)
        root = bz.root.get(buf, buf)
        bz.root[cast.result] = root
        if root in st.owned:
            st.owned[root].add(cast.result)
        return cast.result

    module = op.get_toplevel_object()
    for c in calls:
        name = symbol(c.kind, g)
        args = [as_1(bufs[c.src]), as_1(bufs[c.dst]), const(c.outer, IndexType()), const(c.n, IndexType()),
                const(c.inner, IndexType()), const(c.kind, i32)]
        block.add_op(func.CallOp(name, args, [i32]))
        _declare(module, name, real, cplx)
    bz.bind(r, out)


def _declare(module, name: str, real: Attribute, cplx: Attribute) -> None:
    if not isinstance(module, ModuleOp):
        return
    if any(isinstance(o, func.FuncOp) and o.sym_name.data == name for o in module.ops):
        return
    module.body.block.add_op(func.FuncOp.external(name, *signature(name, real, cplx)))


__all__ = ["KINDS", "bufferize_fft", "signature"]
