"""The translation driver: rebuilds each `func.func` body op by op.

A `Lowerer` keeps a map old value -> new value; lowering functions (registered
per op class with `@lowering(hlo.AddOp, ...)`, so `stablehlo.*` twins find them
too) read operands through `lw.v(old)` and their
original hlo types from the old op, emit into `lw.e`, and return the new
results. Non-hlo ops are cloned with remapped operands. Nested regions
(while/if/case bodies) are translated recursively into new blocks.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from xdsl.dialects import func
from xdsl.dialects.builtin import FunctionType, ModuleOp, TensorType
from xdsl.ir import Block, Operation, Region, SSAValue

from minixla.dialects import hlo  # noqa: F401 -- defines the ops (fills RAW_OPS)
from minixla.dialects.hlo_ops.base import RAW_OPS
from minixla.passes.locations import hlo_origin, inherit, ops_after
from minixla.passes.hlo_to_linalg.common import Emitter, empty, signless, unsupported

LowerFn = Callable[["Lowerer", Operation], Sequence[SSAValue]]

#: op class -> lowering function; keyed by the raw op class that `hlo.X` and its twin `stablehlo.X` share
LOWERINGS: dict[type[Operation], LowerFn] = {}


def _raw(op_class: type[Operation]) -> type[Operation]:
    return RAW_OPS.get(op_class.name.partition(".")[2], op_class)


def lowering(*op_classes: type[Operation]) -> Callable[[LowerFn], LowerFn]:
    """Register `fn` as the lowering of these op classes (e.g. `@lowering(hlo.AddOp)`)."""
    def register(fn: LowerFn) -> LowerFn:
        for cls in op_classes:
            LOWERINGS[_raw(cls)] = fn
        return fn

    return register


#: family module (of this package) -> the mnemonics it lowers; every other mnemonic is elementwise's.
#: `lowering_for` imports a family when the first op of it is lowered, so a compile imports only the
#: families its ops need (tests/passes/test_hlo_to_linalg_families.py checks this table)
FAMILIES: dict[str, tuple[str, ...]] = {
    "contraction": ("dot_general", "convolution"),
    "control": ("while", "if", "case"),
    "fft": ("fft",),
    "fusion": ("fusion",),
    "indexing": ("gather", "scatter", "select_and_scatter"),
    "reduce_precision": ("reduce_precision",),
    "reduction": ("reduce", "reduce_window", "all_reduce"),
    "rng": ("rng_bit_generator",),
    "shape": ("constant", "iota", "broadcast_in_dim", "transpose", "reverse", "reshape", "slice", "concatenate",
              "dynamic_slice", "dynamic_update_slice", "pad"),
    "sort": ("sort",),
    "triangular": ("triangular_solve", "cholesky"),
}
_FAMILY_OF = {m: family for family, names in FAMILIES.items() for m in names}
DEFAULT_FAMILY = "elementwise"


_LOADED: set[str] = set()


def load_family(family: str) -> None:
    """Import family module `family`, which registers its lowerings."""
    if family in _LOADED:
        return
    from importlib import import_module

    from minixla.passes.gc_pause import importing

    with importing():
        import_module(f"{__package__}.{family}")
    _LOADED.add(family)


def load_all_families() -> None:
    """Import every family (listing all lowerings)."""
    for family in (*FAMILIES, DEFAULT_FAMILY):
        load_family(family)


def lowering_for(op: Operation) -> LowerFn | None:
    """The lowering of `op`'s class (found through its base classes), its family imported first (so a
    base class's lowering from another family never stands in for the op's own)."""
    load_family(_FAMILY_OF.get(op.name.partition(".")[2], DEFAULT_FAMILY))
    for klass in type(op).__mro__:
        fn = LOWERINGS.get(klass)
        if fn is not None:
            return fn
    return None


#: ops that compute through their regions even when every result is empty
_CONTROL_FLOW = (RAW_OPS["while"], RAW_OPS["if"], RAW_OPS["case"])


def mnemonic(op: Operation) -> str | None:
    prefix, _, rest = op.name.partition(".")
    return rest if prefix in ("hlo", "stablehlo") else None


class Lowerer:
    def __init__(self, block: Block, vmap: dict[SSAValue, SSAValue] | None = None):
        self.e = Emitter(block)
        self.vmap: dict[SSAValue, SSAValue] = vmap if vmap is not None else {}

    def v(self, old: SSAValue) -> SSAValue:
        return self.vmap.get(old, old)

    def vs(self, olds: Sequence[SSAValue]) -> list[SSAValue]:
        return [self.v(o) for o in olds]

    def child(self, block: Block) -> Lowerer:
        """A lowerer emitting into `block` that sees the enclosing values."""
        return Lowerer(block, dict(self.vmap))

    def translate_block(self, old: Block) -> None:
        """Translate every op of `old` (block arguments must be mapped already)."""
        for op in old.ops:
            self.translate_op(op)

    def translate_op(self, op: Operation) -> None:
        m = mnemonic(op)
        if m is None:
            self._clone(op)
            return
        fn = lowering_for(op)
        if fn is None:
            raise unsupported(op, "no lowering to linalg exists for this op")
        marker = self.e.block.last_op
        if _all_empty(op) and not isinstance(op, _CONTROL_FLOW):
            # nothing to compute (and some lowerings, e.g. a convolution's window
            # loops, would build ill-formed generics for a 0-size output)
            new = [empty(self.e, r.type.get_shape(), signless(r.type).element_type) for r in op.results]
        else:
            new = list(fn(self, op))
        if len(new) != len(op.results):
            raise unsupported(op, f"internal error: {len(new)} values for {len(op.results)} results")
        inherit(ops_after(self.e.block, marker), hlo_origin(op))  # later errors can name this op
        for old_r, new_r in zip(op.results, new):
            self.vmap[old_r] = new_r

    def _clone(self, op: Operation) -> None:
        if op.regions and any(mnemonic(o) for r in op.regions for o in r.walk()):
            raise unsupported(op, "hlo ops nested inside a non-hlo region op are not supported")
        new = op.clone(value_mapper=dict(self.vmap))
        new.operands = tuple(self.v(o) for o in op.operands)
        if any(signless(r.type) != r.type for r in new.results):
            # results are immutable in type: rebuild the op (e.g. a func.call returning ui32)
            rebuilt = type(new).create(operands=new.operands, result_types=[signless(r.type) for r in new.results],
                                       properties=dict(new.properties), attributes=dict(new.attributes),
                                       successors=new.successors, regions=[r.clone() for r in new.regions])
            new.erase()
            new = rebuilt
        self.e.op(new)
        for old_r, new_r in zip(op.results, new.results):
            self.vmap[old_r] = new_r

    def translate_region_into(self, old: Region, arg_values: Sequence[SSAValue] = ()) -> list[SSAValue]:
        """Inline a single-block hlo region into the current block; returns the
        values its `hlo.return` yields (translated)."""
        block = old.block
        for a, v in zip(block.args, arg_values):
            self.vmap[a] = v
        ret = block.last_op
        for op in block.ops:
            if op is ret:
                break
            self.translate_op(op)
        assert ret is not None
        return self.vs(ret.operands)


def _all_empty(op: Operation) -> bool:
    """Every result is a tensor without elements (a 0-size dimension)."""
    return bool(op.results) and all(isinstance(r.type, TensorType) and 0 in r.type.get_shape() for r in op.results)


def convert_func(fn: func.FuncOp) -> None:
    """Translate one function in place; its tensors become signless and the
    original signature is kept as `minixla.hlo_type` for the runtime."""
    if not fn.body.blocks:
        return
    old_block = fn.body.block
    new_block = Block(arg_types=[signless(a.type) for a in old_block.args])
    lw = Lowerer(new_block)
    for a, b in zip(old_block.args, new_block.args):
        lw.vmap[a] = b
    lw.translate_block(old_block)
    old_type = fn.function_type
    new_type = FunctionType.from_lists([signless(t) for t in old_type.inputs.data],
                                       [signless(t) for t in old_type.outputs.data])
    if new_type != old_type:
        fn.attributes["minixla.hlo_type"] = old_type
    old_region = fn.body
    fn.detach_region(old_region)
    fn.add_region(Region(new_block))
    fn.function_type = new_type
    old_region.drop_all_references()


def convert_module(module: ModuleOp) -> None:
    from xdsl.dialects.builtin import Float64Type

    for op in list(module.walk()):
        if isinstance(op, func.FuncOp):
            convert_func(op)
    needs_fmod = any(isinstance(o, func.CallOp) and o.callee.string_value() == "fmod" for o in module.walk())
    has_fmod = any(isinstance(o, func.FuncOp) and o.sym_name.data == "fmod" for o in module.ops)
    if needs_fmod and not has_fmod:
        decl = func.FuncOp.external("fmod", [Float64Type(), Float64Type()], [Float64Type()])
        module.body.block.add_op(decl)
