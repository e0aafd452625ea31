"""The memref half of the direct LLVM IR emitter's op tables (emit_llvm_ops.py has arith and math):
memrefs as bare `ptr`s to their base element, each access one `getelementptr inbounds` over a
linearised i64 index with the static strides and offset of its type (views reuse the pointer),
i1/i2/i4 elements as bytes, `aligned_alloc`/`free` heap buffers, 64-byte aligned private constant
globals laid out as translate.global_initializer lays them out (convert-memref-to-llvm's contract).
"""

from __future__ import annotations

from math import prod

from xdsl.dialects import memref
from xdsl.dialects.builtin import (
    DenseIntOrFPElementsAttr,
    IntegerType,
    MemRefType,
    ReducedPrecisionFloatType,
    UnrealizedConversionCastOp,
)
from xdsl.ir import Attribute, Operation

from minixla.backends.cpu.emit_llvm_ops import (
    Handler,
    Unsupported,
    int_constant,
    literal,
    llvm_type,
    memory_type,
)
from minixla.passes.lower_to_llvm.common import LoweringError, byte_size, is_contiguous, static_layout

ALLOC_ALIGNMENT = 64


# ---- memref -------------------------------------------------------------------------------------
def _layout(t: Attribute) -> tuple[tuple[int, ...], int]:
    if not isinstance(t, MemRefType):
        raise Unsupported(f"memref op on {t}")
    try:
        return static_layout(t)
    except LoweringError as err:
        raise Unsupported(str(err)) from None


def element_pointer(e, base: str, t: MemRefType, indices: list[str]) -> str:
    """GEP inbounds to element `indices` (i64 operands) of memref type `t` (memref_to_llvm's)."""
    strides, offset = _layout(t)
    linear = None
    e.cur.consts += sum(1 for s in strides if s != 1) + (1 if offset else 0)
    for idx, stride in zip(indices, strides, strict=True):
        term = idx if stride == 1 else e.new(f"mul nsw i64 {idx}, {stride}")
        linear = term if linear is None else e.new(f"add nsw i64 {linear}, {term}")
    if offset:
        linear = str(offset) if linear is None else e.new(f"add nsw i64 {linear}, {offset}")
    if linear is None:
        return base
    return e.new(f"getelementptr inbounds {memory_type(t.element_type)}, ptr {base}, i64 {linear}")


def _load(e, op):
    t = op.memref.type
    ptr = element_pointer(e, e.v(op.memref), t, [e.v(i) for i in op.indices])
    mem, val = memory_type(t.element_type), llvm_type(t.element_type)
    value = e.new(f"load {mem}, ptr {ptr}")
    e.set(op, value if mem == val else e.new(f"trunc {mem} {value} to {val}"))


def _store(e, op):
    t = op.memref.type
    ptr = element_pointer(e, e.v(op.memref), t, [e.v(i) for i in op.indices])
    value, vt = e.v(op.value), llvm_type(op.value.type)
    if vt[0] == "i" and int(vt[1:]) < 8:
        value, vt = e.new(f"zext {vt} {value} to i8"), "i8"
    e.do(f"store {vt} {value}, ptr {ptr}")


def _alloc(e, op):
    t = op.memref.type
    strides, offset = _layout(t)
    if op.dynamic_sizes:
        raise Unsupported("dynamic alloc")
    span = offset + sum((d - 1) * s for d, s in zip(t.get_shape(), strides)) + 1
    if 0 in t.get_shape():
        span = 1
    align = max(ALLOC_ALIGNMENT, op.alignment.value.data if op.alignment else 0)
    size = -(-span * byte_size(t.element_type) // align) * align
    e.declare("aligned_alloc", "ptr", ["i64", "i64"])
    e.cur.consts += 2
    e.set(op, e.new(f'call ptr @"aligned_alloc"(i64 {align}, i64 {size})'))


def _alloca(e, op):
    t = op.memref.type
    _layout(t)
    if op.dynamic_sizes:
        raise Unsupported("dynamic alloca")
    align = max(op.alignment.value.data if op.alignment else 0, 16)
    n = max(prod(t.get_shape()), 1)
    e.cur.consts += 1
    e.set(op, e.new(f"alloca {memory_type(t.element_type)}, i64 {n}, align {align}"))


def _dealloc(e, op):
    e.declare("free", "void", ["ptr"])
    e.do(f'call void @"free"(ptr {e.v(op.memref)})')


def _view(e, op):
    _layout(op.results[0].type)
    e.set(op, e.v(op.operands[0]))


def _dim(e, op):
    index = int_constant(op.index)
    if index is None:
        raise Unsupported("memref.dim with a dynamic index")
    e.set(op, str(op.source.type.get_shape()[index]))


def _rank(e, op):
    e.set(op, str(op.source.type.get_num_dims()))


def _aligned_pointer(e, op):
    e.set(op, e.new(f"ptrtoint ptr {e.v(op.source)} to i64"))


def _get_global(e, op):
    e.cur.consts += 1  # (an llvm.mlir.addressof op)
    e.set(op, f'@"{op.name_.root_reference.data}"')


def _copy(e, op):
    src_t, dst_t = op.source.type, op.destination.type
    _layout(src_t)
    _layout(dst_t)
    n = prod(src_t.get_shape())
    if n == 0:
        return
    if not (is_contiguous(src_t) and is_contiguous(dst_t)):
        _copy_loop(e, op, n)
        return
    zeros = ["0"] * len(src_t.get_shape())
    s = element_pointer(e, e.v(op.source), src_t, zeros)
    d = element_pointer(e, e.v(op.destination), dst_t, zeros)
    e.call_intrinsic("llvm.memcpy.p0.p0.i64", "void",
                     [("ptr", d), ("ptr", s), ("i64", str(n * byte_size(src_t.element_type))), ("i1", "0")])


def _copy_loop(e, op, n: int) -> None:
    """A flat element loop, the multi-index by urem/udiv of the shape (memref_to_llvm.CopyLowering)."""
    src_t, dst_t = op.source.type, op.destination.type
    src, dst, mem = e.v(op.source), e.v(op.destination), memory_type(src_t.element_type)

    def body(k: str, accs: list[str]) -> list[str]:
        indices, rest = [], k
        for d in reversed(src_t.get_shape()):
            indices.append(e.new(f"urem i64 {rest}, {d}"))
            rest = e.new(f"udiv i64 {rest}, {d}")
        indices.reverse()
        value = e.new(f"load {mem}, ptr {element_pointer(e, src, src_t, indices)}")
        e.do(f"store {mem} {value}, ptr {element_pointer(e, dst, dst_t, indices)}")
        return []

    e.loop("i64", "0", str(n), "1", n, [], body, step_flags="nsw ")


_VIEWS = (memref.SubviewOp, memref.CastOp, memref.ReinterpretCastOp, memref.CollapseShapeOp,
          memref.ExpandShapeOp, memref.MemorySpaceCastOp, memref.AssumeAlignmentOp)

MEMREF: dict[type[Operation], Handler] = {
    memref.LoadOp: _load, memref.StoreOp: _store, memref.AllocOp: _alloc, memref.AllocaOp: _alloca,
    memref.DeallocOp: _dealloc, memref.DimOp: _dim, memref.RankOp: _rank,
    memref.ExtractAlignedPointerAsIndexOp: _aligned_pointer, memref.GetGlobalOp: _get_global,
    memref.CopyOp: _copy, **{v: _view for v in _VIEWS},
}

def _cast(e, op):
    """An unrealized cast left by the narrow-float emulation (fp8 <-> i8): the same LLVM value."""
    if len(op.operands) != 1 or len(op.results) != 1 or llvm_type(op.operands[0].type) != llvm_type(
            op.results[0].type):
        raise Unsupported("builtin.unrealized_conversion_cast between LLVM types")
    e.set(op, e.v(op.operands[0]))


MEMREF[UnrealizedConversionCastOp] = _cast


# ---- memref.global ------------------------------------------------------------------------------
def _escape(raw: bytes) -> str:
    return "".join(chr(b) if 32 <= b < 127 and b not in (34, 92) else f"\\{b:02X}" for b in raw)


def global_definition(op: memref.GlobalOp) -> str:
    """`memref.global` as an LLVM global: an array of the memory element type laid out as
    translate.global_initializer lays it out (typed elements up to 1024, else raw bytes)."""
    t = op.type
    _layout(t)
    count = max(prod(t.get_shape()), 1)
    elem = t.element_type
    mem = memory_type(elem)
    gtype = f"[{count} x {mem}]"
    value = op.initial_value
    init = "zeroinitializer"
    if isinstance(value, DenseIntOrFPElementsAttr):
        raw = bytes(value.data.data)
        if raw:
            n_values = len(value.get_values()) if count <= 1024 else None
            small_int = isinstance(elem, IntegerType) and elem.width.data < 8
            if isinstance(elem, IntegerType) and elem.width.data == 1:
                raw = bytes(1 if b else 0 for b in raw)
            elif small_int:
                raw = bytes(b & ((1 << elem.width.data) - 1) for b in raw)
            esize = byte_size(elem) if not small_int else 1
            if isinstance(elem, ReducedPrecisionFloatType):
                esize = 1
            if len(raw) == esize and count > 1:
                raw = raw * count  # splat
            if count <= 1024:
                if isinstance(elem, ReducedPrecisionFloatType) or small_int:
                    values = list(raw[:n_values])
                else:
                    values = list(value.get_values())
                if len(values) == 1 and count > 1:
                    values = values * count
                if len(values) != count:
                    raise Unsupported(f"global {op.sym_name.data}: {len(values)} values for {count} elements")
                init = "[" + ", ".join(f"{mem} {literal(mem, v)}" for v in values) + "]"
            else:
                gtype = f"[{len(raw)} x i8]"
                init = f'c"{_escape(raw)}"'
    private = op.sym_visibility is not None and op.sym_visibility.data == "private"
    align = max(ALLOC_ALIGNMENT, op.alignment.value.data if op.alignment else 0)
    kind = "unnamed_addr constant" if op.constant is not None else "global"
    return f'@"{op.sym_name.data}" = {"private " if private else ""}{kind} {gtype} {init}, align {align}'


__all__ = ["MEMREF", "element_pointer", "global_definition"]
