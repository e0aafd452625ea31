"""XlaCallModule: call the `@main` of a serialized StableHLO module (what jax2tf emits).

The module attribute is read as MLIR text with minixla's parser (the `stablehlo` twin dialect), legalized
to `hlo` and its private functions inlined (passes/legalize_stablehlo.py, passes/inline.py). Eagerly the
reference interpreter runs it; when traced its body is cloned into the program being built, so under
jit_compile=True it is compiled with (and fused into) the surrounding ops, as XLA inlines it. MLIR
bytecode modules are not read (UnimplementedError). TF registers no gradient for the op.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp

from minixla.dialects import load_all
from minixla.dialects.diagnostics import DiagnosticError, parse
from minixla.dialects.numpy_types import numpy_dtype
from minixla.frontend.builder import Spec
from minixla.frontend.errors import UnimplementedError, at_user_line
from minixla.frontend.ops.registry import op_error, register

OP = "XlaCallModule"
_BYTECODE_MAGIC = b"ML\xefR"


def _text(module) -> str:
    if isinstance(module, (bytes, bytearray, np.bytes_)):
        if bytes(module).startswith(_BYTECODE_MAGIC):
            raise UnimplementedError(at_user_line(
                f"{OP}: the module is MLIR bytecode; minixla reads StableHLO modules as MLIR text only "
                f"(serialize with `mlir_module.operation.get_asm()`) [Op:{OP}]"))
        return bytes(module).decode("utf-8", errors="replace")
    return str(module)


@lru_cache(maxsize=32)
def _load(text: str) -> tuple[ModuleOp, func.FuncOp]:
    """The legalized, inlined module and its `@main` (cached per module text)."""
    from minixla.passes.inline import InlinePass
    from minixla.passes.legalize_stablehlo import StablehloLegalizeToHlo

    ctx = load_all()
    try:
        module = parse(text, "<XlaCallModule module>", ctx)
        module.verify()
    except DiagnosticError as err:
        raise op_error(OP, f"cannot read the StableHLO module: {err}") from None
    except Exception as err:  # noqa: BLE001 -- xDSL's verifier: any failure is a bad module
        raise op_error(OP, f"the StableHLO module does not verify: {str(err).splitlines()[0]}") from None
    StablehloLegalizeToHlo().apply(ctx, module)
    InlinePass().apply(ctx, module)
    mains = [op for op in module.ops if isinstance(op, func.FuncOp) and op.sym_name.data == "main"]
    if not mains or not mains[0].body.blocks:
        raise op_error(OP, "the module has no @main function")
    return module, mains[0]


def _specs(types) -> list[Spec]:
    out = []
    for t in types:
        shape = tuple(t.get_shape())
        if any(d < 0 for d in shape):
            raise UnimplementedError(at_user_line(f"{OP}: @main has a dynamic shape {list(shape)} (polymorphic "
                                                  f"shapes are not implemented in minixla) [Op:{OP}]"))
        out.append(Spec(shape, numpy_dtype(t.get_element_type())))
    return out


def xla_call_module(b, args, version=None, module=b"", Sout=(), Tout=(), Tin=None, dim_args_spec=(), platforms=(),
                    function_list=(), has_token_input_output=False, disabled_checks=(),
                    use_shardy_partitioner=False):
    if list(function_list) or has_token_input_output or list(dim_args_spec):
        raise UnimplementedError(at_user_line(f"{OP}: function_list, tokens and dim_args_spec are not implemented "
                                              f"in minixla [Op:{OP}]"))
    mod, main = _load(_text(module))
    ins, outs = _specs(main.function_type.inputs.data), _specs(main.function_type.outputs.data)
    if len(args) != len(ins):
        raise op_error(OP, f"@main takes {len(ins)} arguments, got {len(args)}")
    for i, (a, s) in enumerate(zip(args, ins)):
        if tuple(a.shape) != s.shape or np.dtype(a.dtype) != s.dtype:
            raise op_error(OP, f"argument {i} of @main must be {s.dtype}{list(s.shape)}, got "
                               f"{np.dtype(a.dtype)}{list(a.shape)}")
    if len(Tout) != len(outs) or any(np.dtype(getattr(t, "as_numpy_dtype", t)) != s.dtype for t, s in zip(Tout, outs)):
        raise op_error(OP, f"Tout {list(Tout)} does not match the result types of @main "
                           f"{[str(s.dtype) for s in outs]}")
    kind = type(b).__name__
    if kind == "EagerBuilder":
        from minixla.backends.interpreter import run_function

        return tuple(run_function(mod, "main", [np.asarray(a) for a in args]))
    if kind == "TracingBuilder":
        return tuple(_inline(b, main, args))
    return tuple(outs)  # type inference


def _inline(b, main: func.FuncOp, args) -> list:
    """@main's body cloned in front of the builder's insertion point, its arguments replaced by `args`."""
    from minixla.frontend.builder_trace import TValue

    body = main.body.clone()
    block = body.block
    for arg, value in zip(block.args, args):
        arg.replace_all_uses_with(value.ssa)
    ret = block.last_op
    results = list(ret.operands)
    for op in list(block.ops):
        if op is ret:
            break
        op.detach()
        b._insert(op)
    return [TValue(r) for r in results]


register(OP, ("*args",), xla_call_module,
         attrs={"version": None, "module": b"", "Sout": (), "Tout": (), "Tin": None, "dim_args_spec": (),
                "platforms": (), "function_list": (), "has_token_input_output": False, "disabled_checks": (),
                "use_shardy_partitioner": False}, typed=())
