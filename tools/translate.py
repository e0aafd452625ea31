"""`minixla-translate`: mlir-translate's role for minixla.

    minixla-translate --mlir-to-llvmir lowered.mlir      # llvm dialect -> LLVM IR
    minixla-opt in.mlir -p hlo-to-cpu | minixla-translate --mlir-to-llvmir -
    minixla-opt in.mlir -p hlo-to-gpu | minixla-translate --mlir-to-ptx --gpu-arch sm_90 -
    minixla-translate --mlir-to-shared-library f.mlir -o libf.so --emit-header f.h   # AOT
    minixla-opt f.mlir -p hlo-to-cpu | minixla-translate --mlir-to-object - -o f.o
    minixla-opt f.mlir -p hlo-optimize | minixla-translate --hlo-to-dot -   # --hlo-to-svg: via Graphviz

The LLVM IR targets the host (triple and data layout); `--mlir-to-ptx`
translates the device code (the `gpu.module` left by `hlo-to-gpu`) for
`nvptx64-nvidia-cuda` and emits PTX (`--mlir-to-nvptx-llvmir` stops at the
LLVM IR). The AOT modes (`backends/cpu/aot.py`) take hlo input (lowered
with `hlo-optimize` and `hlo-to-cpu`, loops for matmuls unless `--blas`) or
the llvm dialect, and write a relocatable object or a shared library whose
entry points are `<prefix><function>`; `--emit-header` writes their C header.
Errors are reported as `file: error: ...` with exit code 1.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence


def _read(path: str) -> str:
    if path == "-":
        return sys.stdin.read()
    with open(path) as f:
        return f.read()


def main(argv: Sequence[str] | None = None) -> int:
    from minixla.passes.trace_events import start_from_env

    start_from_env()  # MINIXLA_TRACE=path: a Chrome trace (docs/tools.md)
    parser = argparse.ArgumentParser(prog="minixla-translate", description=__doc__.splitlines()[0])
    parser.add_argument("input", nargs="?", default="-", help="input .mlir file ('-' for stdin)")
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--mlir-to-llvmir", action="store_true",
                      help="translate an llvm-dialect module to LLVM IR")
    mode.add_argument("--mlir-to-ptx", action="store_true",
                      help="translate the gpu.module of a lowered module to PTX (docs/gpu.md)")
    mode.add_argument("--mlir-to-nvptx-llvmir", action="store_true",
                      help="the gpu.module as NVPTX LLVM IR (before optimization and libdevice)")
    mode.add_argument("--mlir-to-object", action="store_true",
                      help="AOT: a relocatable object file (.o) for --target-cpu")
    mode.add_argument("--mlir-to-shared-library", action="store_true",
                      help="AOT: a shared library (.so) linked with the system C compiler")
    mode.add_argument("--mlir-to-c-header", action="store_true",
                      help="AOT: only the C header declaring the entry points")
    mode.add_argument("--hlo-to-dot", action="store_true",
                      help="Graphviz DOT of the dataflow, hlo.fusion bodies as clusters")
    mode.add_argument("--hlo-to-svg", action="store_true", help="the DOT graph rendered to SVG by Graphviz")
    aot = parser.add_argument_group("AOT options (docs/cpu-pipeline.md)")
    aot.add_argument("--emit-header", metavar="FILE", default=None,
                     help="also write the C header of the object/library to FILE")
    aot.add_argument("--target-cpu", default="host",
                     help="host (default) or a portable x86-64 level: x86-64, x86-64-v2, x86-64-v3, x86-64-v4")
    aot.add_argument("--symbol-prefix", default=None, help="prefix of exported symbols (default minixla_)")
    aot.add_argument("--entry", action="append", default=None,
                     help="export only this public function (repeatable; default: all)")
    aot.add_argument("--blas", action="store_true",
                     help="matmuls call numpy's OpenBLAS (the library then depends on it, via an rpath)")
    aot.add_argument("--no-hlo-optimize", action="store_true", help="skip hlo-optimize (fusion) on hlo input")
    parser.add_argument("--gpu-arch", default="sm_80", help="PTX target architecture (default sm_80)")
    parser.add_argument("-o", "--output", default="-", help="output file ('-' for stdout)")
    parser.add_argument("--target-triple", default=None, help="override the host triple")
    parser.add_argument("--data-layout", default=None, help="override the host data layout")
    args = parser.parse_args(argv)
    aot_mode = args.mlir_to_object or args.mlir_to_shared_library or args.mlir_to_c_header
    if not aot_mode and (args.emit_header or args.blas or args.entry or args.no_hlo_optimize
                         or args.symbol_prefix is not None or args.target_cpu != "host"):
        parser.error("AOT options need --mlir-to-object, --mlir-to-shared-library or --mlir-to-c-header")
    if aot_mode and (args.target_triple or args.data_layout):
        parser.error("AOT output is for the host triple; --target-triple/--data-layout do not apply")
    if args.mlir_to_shared_library and args.output == "-":
        parser.error("--mlir-to-shared-library needs -o FILE")

    from xdsl.parser import Parser
    from xdsl.utils.exceptions import ParseError

    from minixla.backends.cpu.aot import AotError
    from minixla.backends.cpu.translate import TranslationError, translate_to_llvm_ir
    from minixla.dialects import load_all
    from minixla.passes.hlo_dot import DotRenderError, module_to_dot, render_svg

    name = "<stdin>" if args.input == "-" else args.input
    try:
        module = Parser(load_all(), _read(args.input), name).parse_module()
        module.verify()
        if aot_mode:
            return _aot(module, args)
        if args.hlo_to_dot or args.hlo_to_svg:
            text = module_to_dot(module)
            text = render_svg(text) if args.hlo_to_svg else text
        elif args.mlir_to_ptx or args.mlir_to_nvptx_llvmir:
            from minixla.backends.gpu.translate import translate_to_nvptx_ir, translate_to_ptx

            text = (translate_to_ptx(module, args.gpu_arch) if args.mlir_to_ptx
                    else translate_to_nvptx_ir(module))
        else:
            text = translate_to_llvm_ir(module, triple=args.target_triple, data_layout=args.data_layout)
    except (ParseError, TranslationError, AotError, OSError, DotRenderError) as err:
        print(f"{name}: error: {err}", file=sys.stderr)
        return 1
    except Exception as err:  # noqa: BLE001 -- report verifier and lowering errors without a traceback
        print(f"{name}: error: {type(err).__name__}: {err}", file=sys.stderr)
        return 1
    if args.output == "-":
        sys.stdout.write(text)
    else:
        with open(args.output, "w") as f:
            f.write(text)
    return 0


def _aot(module, args) -> int:
    """The AOT modes; AotError propagates to main's error report."""
    from minixla.backends.cpu.aot import DEFAULT_PREFIX, compile_aot

    compiled = compile_aot(module, prefix=args.symbol_prefix if args.symbol_prefix is not None else DEFAULT_PREFIX,
                           entries=args.entry, blas=args.blas, optimize=not args.no_hlo_optimize)
    if args.mlir_to_c_header:
        _write(args.output, compiled.header())
    elif args.mlir_to_object:
        data = compiled.object_code(args.target_cpu)
        if args.output == "-":
            sys.stdout.buffer.write(data)
        else:
            with open(args.output, "wb") as f:
                f.write(data)
    else:
        compiled.write_shared_library(args.output, args.target_cpu)
    if args.emit_header:
        _write(args.emit_header, compiled.header())
    return 0


def _write(path: str, text: str) -> None:
    if path == "-":
        sys.stdout.write(text)
    else:
        with open(path, "w") as f:
            f.write(text)


if __name__ == "__main__":
    sys.exit(main())
