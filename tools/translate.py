"""`minixla-translate`: mlir-translate's role for minixla.

    minixla-translate --mlir-to-llvmir lowered.mlir      # llvm dialect -> LLVM IR
    minixla-opt in.mlir -p hlo-to-cpu | minixla-translate --mlir-to-llvmir -
    minixla-opt in.mlir -p hlo-to-gpu | minixla-translate --mlir-to-ptx --gpu-arch sm_90 -

The LLVM IR targets the host (triple and data layout); `--mlir-to-ptx`
translates the device code (the `gpu.module` left by `hlo-to-gpu`) for
`nvptx64-nvidia-cuda` and emits PTX (`--mlir-to-nvptx-llvmir` stops at the
LLVM IR). Errors are reported as `file: error: ...` with exit code 1.
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
    parser = argparse.ArgumentParser(prog="minixla-translate", description=__doc__.splitlines()[0])
    parser.add_argument("input", nargs="?", default="-", help="input .mlir file ('-' for stdin)")
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--mlir-to-llvmir", action="store_true",
                      help="translate an llvm-dialect module to LLVM IR")
    mode.add_argument("--mlir-to-ptx", action="store_true",
                      help="translate the gpu.module of a lowered module to PTX (docs/gpu.md)")
    mode.add_argument("--mlir-to-nvptx-llvmir", action="store_true",
                      help="the gpu.module as NVPTX LLVM IR (before optimization and libdevice)")
    parser.add_argument("--gpu-arch", default="sm_80", help="PTX target architecture (default sm_80)")
    parser.add_argument("-o", "--output", default="-", help="output file ('-' for stdout)")
    parser.add_argument("--target-triple", default=None, help="override the host triple")
    parser.add_argument("--data-layout", default=None, help="override the host data layout")
    args = parser.parse_args(argv)

    from xdsl.parser import Parser
    from xdsl.utils.exceptions import ParseError

    from backends.cpu.translate import TranslationError, translate_to_llvm_ir
    from dialects import load_all

    name = "<stdin>" if args.input == "-" else args.input
    try:
        module = Parser(load_all(), _read(args.input), name).parse_module()
        module.verify()
        if args.mlir_to_ptx or args.mlir_to_nvptx_llvmir:
            from backends.gpu.translate import translate_to_nvptx_ir, translate_to_ptx

            text = (translate_to_ptx(module, args.gpu_arch) if args.mlir_to_ptx
                    else translate_to_nvptx_ir(module))
        else:
            text = translate_to_llvm_ir(module, triple=args.target_triple, data_layout=args.data_layout)
    except (ParseError, TranslationError, OSError) as err:
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


if __name__ == "__main__":
    sys.exit(main())
