"""llvm dialect -> LLVM IR (an `llvmlite.ir.Module`).

Our own translator for the ops the lowering emits, falling back to xDSL's
`convert_op` for the rest. It exists because xDSL's drops function linkage,
has no bf16, declares intrinsics without type mangling, rejects fast-math
flags on intrinsic calls, orders fast-math flags by hash seed and leaves the
data layout empty. Globals with a dense initial value are laid out from the
attribute's raw bytes (i1 as one byte per element).
"""

from __future__ import annotations

import math
import struct

import llvmlite.ir as ir
from xdsl.backend.llvm.convert_op import convert_op as xdsl_convert_op
from xdsl.dialects import llvm
from xdsl.dialects.builtin import (
    BFloat16Type,
    DenseIntOrFPElementsAttr,
    ReducedPrecisionFloatType,
    Float16Type,
    Float32Type,
    Float64Type,
    FloatAttr,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    NoneType,
    StringAttr,
    VectorType,
)
from xdsl.ir import Attribute, Block, Operation, SSAValue

from minixla.backends.cpu.loop_hints import enabled as loop_hints_enabled
from minixla.backends.cpu.loop_hints import loop_hints, loop_id
from minixla.backends.cpu.outline import plan_cut, tail_inputs
from minixla.backends.cpu.target import host_target


class TranslationError(Exception):
    """The module holds an op or type with no LLVM IR translation."""


class BFloatType(ir.types._BaseFloatType):  # llvmlite has no bfloat
    null = "0.0"
    intrinsic_name = "bf16"

    def __str__(self) -> str:
        return "bfloat"

    def format_constant(self, value) -> str:
        bits = struct.unpack("<I", struct.pack("<f", float(value)))[0]
        bits = 0x7FC0 if math.isnan(value) else (bits + 0x7FFF + ((bits >> 16) & 1)) >> 16
        return f"0xR{bits & 0xFFFF:04X}"


BFloatType._create_instance()

FASTMATH_ORDER = ("reassoc", "nnan", "ninf", "nsz", "arcp", "contract", "afn")


def convert_type(t: Attribute) -> ir.Type:
    if isinstance(t, IntegerType):
        return ir.IntType(t.width.data)
    if isinstance(t, Float32Type):
        return ir.FloatType()
    if isinstance(t, Float64Type):
        return ir.DoubleType()
    if isinstance(t, Float16Type):
        return ir.HalfType()
    if isinstance(t, BFloat16Type):
        return BFloatType()
    if isinstance(t, llvm.LLVMPointerType):
        space = t.addr_space.data if hasattr(t.addr_space, "data") else 0
        return ir.PointerType(addrspace=space)
    if isinstance(t, (llvm.LLVMVoidType, NoneType)):
        return ir.VoidType()
    if isinstance(t, VectorType):
        return ir.VectorType(convert_type(t.element_type), t.element_count())
    if isinstance(t, llvm.LLVMArrayType):
        return ir.ArrayType(convert_type(t.type), t.size.data)
    if isinstance(t, llvm.LLVMStructType):
        return ir.LiteralStructType([convert_type(x) for x in t.types.data])
    if isinstance(t, llvm.LLVMFunctionType):
        return ir.FunctionType(convert_type(t.output), [convert_type(x) for x in t.inputs.data],
                               var_arg=t.is_variadic)
    raise TranslationError(f"type {t} has no LLVM IR translation")


def fastmath_flags(attr) -> list[str]:
    flags = {f.value for f in attr.data} if attr is not None else set()
    if set(FASTMATH_ORDER) <= flags:
        return ["fast"]
    return [f for f in FASTMATH_ORDER if f in flags]


def scalar_constant(t: ir.Type, attr: Attribute) -> ir.Constant:
    if isinstance(attr, IntegerAttr):
        return ir.Constant(t, attr.value.data)
    if isinstance(attr, FloatAttr):
        return ir.Constant(t, attr.value.data)
    if isinstance(attr, DenseIntOrFPElementsAttr):
        return ir.Constant(t, [int(v) if isinstance(v, bool) else v for v in attr.get_values()])
    raise TranslationError(f"unsupported constant {attr}")


def global_initializer(gtype: ir.Type, value: DenseIntOrFPElementsAttr) -> ir.Constant:
    """Bytes of a dense attribute as the initializer of an array global."""
    raw = bytes(value.data.data)
    if not raw:  # a 0-element tensor still gets a 1-element slot (zero-filled), never read
        return ir.Constant(gtype, None)
    elem = value.get_element_type()
    if isinstance(elem, IntegerType) and elem.width.data == 1:
        raw = bytes(1 if b else 0 for b in raw)
    elif isinstance(elem, IntegerType) and elem.width.data < 8:  # i2/i4: low bits, as ml_dtypes stores them
        raw = bytes(b & ((1 << elem.width.data) - 1) for b in raw)
    count = gtype.count if isinstance(gtype, ir.ArrayType) else 1
    esize = len(raw) // max(len(value.get_values()), 1) if raw else 0
    if esize and len(raw) // esize == 1 and count > 1:
        raw = raw * count  # splat
    if isinstance(gtype, ir.ArrayType) and count <= 1024:
        byte_sized = isinstance(elem, ReducedPrecisionFloatType) or isinstance(elem, IntegerType) and elem.width.data < 8
        values = list(raw[:len(value.get_values())]) if byte_sized else value.get_values()
        if len(values) == 1 and count > 1:
            values = values * count
        if isinstance(gtype.element, ir.IntType) and gtype.element.width == 8 and isinstance(elem, IntegerType) \
                and elem.width.data == 1:
            values = [1 if v else 0 for v in values]
        return ir.Constant(gtype, list(values))
    return ir.Constant(ir.ArrayType(ir.IntType(8), len(raw)), bytearray(raw))


class FunctionTranslator:
    """Translates one llvm.func body; block arguments become phis."""

    def __init__(self, module: ir.Module, op: llvm.FuncOp, cut: int | None = None):
        self.module = module
        #: blocks from this index on become a function of their own (outline.py); None: no cut
        self.cut = cut
        self.cut_block: Block | None = None
        #: (LLVM block, branch arguments) of the head's branches to the cut block: each ends in a call
        self.cut_sites: list[tuple[ir.Block, list[SSAValue]]] = []
        self.fn: ir.Function = module.get_global(op.sym_name.data)
        self.op = op
        self.values: dict[SSAValue, ir.Value] = {}
        self.blocks: dict[Block, ir.Block] = {}
        #: back edges of small loops: their hint for LLVM (loop_hints.py)
        self.loop_hints = loop_hints(op) if loop_hints_enabled() else {}

    def run(self) -> None:
        blocks = list(self.op.body.blocks)
        cut = len(blocks) if self.cut is None else self.cut
        head, tail = blocks[:cut], blocks[cut:]
        for i, block in enumerate(head):
            self.blocks[block] = self.fn.append_basic_block(name=f"bb{i}")
        entry = blocks[0]
        for arg, llarg in zip(entry.args, self.fn.args):
            self.values[arg] = llarg
            if arg.name_hint:
                llarg.name = arg.name_hint
        self.cut_block = tail[0] if tail else None
        self._translate_blocks(head)
        if tail:
            self._translate_tail(head, tail)

    def _translate_blocks(self, blocks: list[Block]) -> None:
        for block in blocks[1:]:
            builder = ir.IRBuilder(self.blocks[block])
            for arg in block.args:
                self.values[arg] = builder.phi(convert_type(arg.type), name=arg.name_hint or "")
        for block in blocks:
            builder = ir.IRBuilder(self.blocks[block])
            if self.blocks[block].instructions:
                builder.position_after(self.blocks[block].instructions[-1])
            for op in block.ops:
                self.translate(op, builder)

    def _translate_tail(self, head: list[Block], tail: list[Block]) -> None:
        """The blocks from the cut on become function `<name>__tail` (outline.py); the head's branches
        to the cut call it and return what it returns."""
        inputs = [v for v in tail_inputs(tail, set(head))
                  if not isinstance(self.values[v], ir.Constant | ir.GlobalValue)]  # rematerialised
        params = [*tail[0].args, *inputs]
        name = self.fn.name + "__tail"
        while name in self.module.globals:
            name += "_"
        ret = self.fn.function_type.return_type
        part = ir.Function(self.module, ir.FunctionType(ret, [convert_type(v.type) for v in params]), name=name)
        part.attributes.add("nounwind")
        for block, args in self.cut_sites:
            b = ir.IRBuilder(block)
            result = b.call(part, [self.v(a) for a in args] + [self.values[v] for v in inputs])
            b.ret_void() if isinstance(ret, ir.VoidType) else b.ret(result)
        for value, llarg in zip(params, part.args):
            self.values[value] = llarg
        for i, block in enumerate(tail):
            self.blocks[block] = part.append_basic_block(name=f"bb{len(head) + i}")
        self._translate_blocks(tail)

    def v(self, value: SSAValue) -> ir.Value:
        return self.values[value]

    def set(self, op: Operation, value: ir.Value) -> None:
        self.values[op.results[0]] = value

    def translate(self, op: Operation, b: ir.IRBuilder) -> None:
        handler = _HANDLERS.get(type(op))
        if handler is not None:
            handler(self, op, b)
            return
        if op.name == "builtin.unrealized_conversion_cast":
            raise TranslationError(
                "unrealized_conversion_cast left in the module: an op was not lowered "
                f"({op.operands[0].type} -> {op.results[0].type}); run reconcile-unrealized-casts "
                "after all conversions")
        try:
            xdsl_convert_op(op, b, self.values, self.blocks)
        except NotImplementedError as err:
            raise TranslationError(f"'{op.name}' has no LLVM IR translation ({err})") from None

    def branch_args(self, dest: Block, args, b: ir.IRBuilder) -> None:
        for arg, value in zip(dest.args, args, strict=True):
            self.values[arg].add_incoming(self.v(value), b.block)


def _binop(method: str):
    def h(t: FunctionTranslator, op, b: ir.IRBuilder):
        flags: list[str] = []
        if isinstance(op, llvm.AbstractFloatArithOp):
            flags = fastmath_flags(op.fastmathFlags)
        elif isinstance(op, llvm.ArithmeticBinOpOverflow) and op.overflowFlags:
            flags = [f.value for f in llvm.OverflowAttr.from_int(op.overflowFlags.value.data).data]
            flags = [f for f in ("nuw", "nsw") if f in flags]
        elif isinstance(op, llvm.ArithmeticBinOpExact) and op.is_exact:
            flags = ["exact"]
        t.set(op, getattr(b, method)(t.v(op.lhs), t.v(op.rhs), name=op.results[0].name_hint or "", flags=flags))

    return h


def _cast(opname: str):
    def h(t: FunctionTranslator, op, b: ir.IRBuilder):
        instr = ir.instructions.CastInstr(b.block, opname, t.v(op.operands[0]),
                                          convert_type(op.results[0].type), name=op.results[0].name_hint or "")
        b._insert(instr)
        t.set(op, instr)

    return h


_ICMP = {"eq": "==", "ne": "!=", "slt": "<", "sle": "<=", "sgt": ">", "sge": ">=",
         "ult": "<", "ule": "<=", "ugt": ">", "uge": ">="}
_FCMP = {"eq": "==", "ne": "!=", "lt": "<", "le": "<=", "gt": ">", "ge": ">=", "rd": "ord", "no": "uno"}


def _icmp(t: FunctionTranslator, op: llvm.ICmpOp, b: ir.IRBuilder):
    pred = llvm.ICmpPredicateFlag.from_int(op.predicate.value.data).value
    fn = b.icmp_unsigned if pred[0] == "u" else b.icmp_signed
    t.set(op, fn(_ICMP[pred], t.v(op.lhs), t.v(op.rhs)))


def _fcmp(t: FunctionTranslator, op: llvm.FCmpOp, b: ir.IRBuilder):
    pred = llvm.FCmpPredicateFlag.from_int(op.predicate.value.data).value
    if pred in ("ord", "uno"):
        t.set(op, b.fcmp_ordered(pred, t.v(op.lhs), t.v(op.rhs)))
        return
    fn = b.fcmp_ordered if pred[0] == "o" else b.fcmp_unordered
    t.set(op, fn(_FCMP[pred[1:]], t.v(op.lhs), t.v(op.rhs)))


def _declare(module: ir.Module, name: str, fnty: ir.FunctionType) -> ir.Function:
    if name in module.globals:
        return module.globals[name]
    return ir.Function(module, fnty, name=name)


def _call_intrinsic(t: FunctionTranslator, op: llvm.CallIntrinsicOp, b: ir.IRBuilder):
    args = [t.v(a) for a in op.args]
    ret = convert_type(op.ress.type) if op.ress is not None else ir.VoidType()
    fn = _declare(t.module, op.intrin.data, ir.FunctionType(ret, [a.type for a in args]))
    res = b.call(fn, args, fastmath=tuple(fastmath_flags(op.fastmathFlags)))
    if op.ress is not None:
        t.set(op, res)


def _call(t: FunctionTranslator, op: llvm.CallOp, b: ir.IRBuilder):
    if op.callee is None:
        raise TranslationError("indirect llvm.call is not supported")
    callee = t.module.get_global(op.callee.string_value())
    flags = fastmath_flags(op.fastmathFlags) if op.returned is not None else []
    res = b.call(callee, [t.v(a) for a in op.args], fastmath=tuple(flags))
    if op.returned is not None:
        t.set(op, res)


def _gep(t: FunctionTranslator, op: llvm.GEPOp, b: ir.IRBuilder):
    ssa = iter(op.ssa_indices)
    indices = [t.v(next(ssa)) if i == llvm.GEP_USE_SSA_VAL else ir.Constant(ir.IntType(32), i)
               for i in op.rawConstantIndices.iter_values()]
    t.set(op, b.gep(t.v(op.ptr), indices, inbounds=op.inbounds is not None,
                    source_etype=convert_type(op.elem_type), name=op.result.name_hint or ""))


def _load(t: FunctionTranslator, op: llvm.LoadOp, b: ir.IRBuilder):
    align = op.alignment.value.data if op.alignment else None
    t.set(op, b.load(t.v(op.ptr), typ=convert_type(op.dereferenced_value.type), align=align,
                     name=op.dereferenced_value.name_hint or ""))


def _store(t: FunctionTranslator, op: llvm.StoreOp, b: ir.IRBuilder):
    align = op.alignment.value.data if op.alignment else None
    value, ptr = t.v(op.value), t.v(op.ptr)
    if getattr(ptr.type, "pointee", value.type) != value.type:  # a global's address (typed as its array)
        ptr = b.bitcast(ptr, value.type.as_pointer())
    b.store(value, ptr, align=align)


def _alloca(t: FunctionTranslator, op: llvm.AllocaOp, b: ir.IRBuilder):
    inst = b.alloca(convert_type(op.elem_type), size=t.v(op.size))
    if op.alignment:
        inst.align = op.alignment.value.data
    t.set(op, inst)


def _constant(t: FunctionTranslator, op: llvm.ConstantOp, b: ir.IRBuilder):
    t.set(op, scalar_constant(convert_type(op.result.type), op.value))


def _br(t: FunctionTranslator, op: llvm.BrOp, b: ir.IRBuilder):
    if op.successor is t.cut_block:  # a call of the tail, emitted once its parameters are known
        t.cut_sites.append((b.block, list(op.arguments)))
        return
    t.branch_args(op.successor, op.arguments, b)
    instr = b.branch(t.blocks[op.successor])
    if op in t.loop_hints:
        instr.set_metadata("llvm.loop", loop_id(t.module, t.loop_hints[op]))


def _cond_br(t: FunctionTranslator, op: llvm.CondBrOp, b: ir.IRBuilder):
    if op.then_block is op.else_block and (op.then_arguments or op.else_arguments):
        raise TranslationError("llvm.cond_br to one block with arguments needs distinct blocks")
    targets = []
    for dest, args in ((op.then_block, op.then_arguments), (op.else_block, op.else_arguments)):
        if dest is t.cut_block:  # a block of its own that calls the tail
            stub = t.fn.append_basic_block(name=f"cut{len(t.cut_sites)}")
            t.cut_sites.append((stub, list(args)))
            targets.append(stub)
        else:
            t.branch_args(dest, args, b)
            targets.append(t.blocks[dest])
    b.cbranch(t.v(op.cond), *targets)


def _return(t: FunctionTranslator, op: llvm.ReturnOp, b: ir.IRBuilder):
    if op.operands:
        b.ret(t.v(op.operands[0]))
    else:
        b.ret_void()


def _select(t: FunctionTranslator, op: llvm.SelectOp, b: ir.IRBuilder):
    t.set(op, b.select(t.v(op.cond), t.v(op.lhs), t.v(op.rhs), name=op.res.name_hint or ""))


def _fneg(t: FunctionTranslator, op: llvm.FNegOp, b: ir.IRBuilder):
    t.set(op, b.fneg(t.v(op.arg), flags=fastmath_flags(op.fastmathFlags)))


def _addressof(t: FunctionTranslator, op: llvm.AddressOfOp, b: ir.IRBuilder):
    t.set(op, t.module.get_global(op.global_name.root_reference.data))


_HANDLERS = {
    llvm.AddOp: _binop("add"), llvm.SubOp: _binop("sub"), llvm.MulOp: _binop("mul"),
    llvm.SDivOp: _binop("sdiv"), llvm.UDivOp: _binop("udiv"), llvm.SRemOp: _binop("srem"),
    llvm.URemOp: _binop("urem"), llvm.AndOp: _binop("and_"), llvm.OrOp: _binop("or_"),
    llvm.XOrOp: _binop("xor"), llvm.ShlOp: _binop("shl"), llvm.LShrOp: _binop("lshr"),
    llvm.AShrOp: _binop("ashr"), llvm.FAddOp: _binop("fadd"), llvm.FSubOp: _binop("fsub"),
    llvm.FMulOp: _binop("fmul"), llvm.FDivOp: _binop("fdiv"), llvm.FRemOp: _binop("frem"),
    llvm.TruncOp: _cast("trunc"), llvm.ZExtOp: _cast("zext"), llvm.SExtOp: _cast("sext"),
    llvm.FPExtOp: _cast("fpext"), llvm.FPTruncOp: _cast("fptrunc"), llvm.SIToFPOp: _cast("sitofp"),
    llvm.BitcastOp: _cast("bitcast"), llvm.PtrToIntOp: _cast("ptrtoint"), llvm.IntToPtrOp: _cast("inttoptr"),
    llvm.ICmpOp: _icmp, llvm.FCmpOp: _fcmp, llvm.CallIntrinsicOp: _call_intrinsic, llvm.CallOp: _call,
    llvm.GEPOp: _gep, llvm.LoadOp: _load, llvm.StoreOp: _store, llvm.AllocaOp: _alloca,
    llvm.ConstantOp: _constant, llvm.BrOp: _br, llvm.CondBrOp: _cond_br, llvm.ReturnOp: _return,
    llvm.SelectOp: _select, llvm.FNegOp: _fneg, llvm.AddressOfOp: _addressof,
}


def _linkage(op) -> str:
    name = op.linkage.linkage.data if op.linkage is not None else "external"
    return "" if name == "external" else name


def _declare_global(module: ir.Module, op: llvm.GlobalOp) -> None:
    gtype = convert_type(op.global_type)
    value = op.value
    init = None
    if isinstance(value, DenseIntOrFPElementsAttr):
        init = global_initializer(gtype, value)
        gtype = init.type
    elif isinstance(value, StringAttr):
        raw = value.data.encode()
        init = ir.Constant(ir.ArrayType(ir.IntType(8), len(raw)), bytearray(raw))
        gtype = init.type
    elif value is not None:
        init = scalar_constant(gtype, value)
    gvar = ir.GlobalVariable(module, gtype, name=op.sym_name.data, addrspace=op.addr_space.value.data)
    gvar.linkage = _linkage(op)
    gvar.global_constant = op.constant is not None
    if op.constant is not None:
        gvar.unnamed_addr = True
    gvar.initializer = init if init is not None else ir.Constant(gtype, None)
    if op.alignment is not None:
        gvar.align = op.alignment.value.data


def _declare_function(module: ir.Module, op: llvm.FuncOp) -> None:
    fn = ir.Function(module, convert_type(op.function_type), name=op.sym_name.data)
    if op.body.blocks:
        fn.linkage = _linkage(op)
        fn.attributes.add("nounwind")


def translate_module(module: ModuleOp, triple: str | None = None, data_layout: str | None = None,
                     split_above: int | None = None) -> ir.Module:
    """Translate a module holding only llvm.func / llvm.mlir.global ops. The
    triple and data layout default to the host's. `split_above`: in a module of
    at least that many operations whose biggest function holds most of them, that
    function's second half becomes a function of its own (outline.py), so that
    the module's functions can be compiled in two balanced groups."""
    if triple is None or data_layout is None:
        host = host_target()
        triple = triple or host.triple
        data_layout = data_layout if data_layout is not None else host.data_layout
    out = ir.Module(name="minixla")
    out.triple = triple
    out.data_layout = data_layout
    funcs: list[llvm.FuncOp] = []
    for op in module.ops:
        if isinstance(op, llvm.GlobalOp):
            _declare_global(out, op)
        elif isinstance(op, llvm.FuncOp):
            funcs.append(op)
        else:
            raise TranslationError(f"'{op.name}' at module level: the module is not fully lowered to llvm")
    for op in funcs:
        _declare_function(out, op)
    plan = plan_cut(funcs, split_above) if split_above is not None else None
    for op in funcs:
        if op.body.blocks:
            FunctionTranslator(out, op, plan[1] if plan is not None and plan[0] is op else None).run()
    return out


def translate_to_llvm_ir(module: ModuleOp, **kwargs) -> str:
    return str(translate_module(module, **kwargs))


__all__ = ["TranslationError", "convert_type", "translate_module", "translate_to_llvm_ir"]
