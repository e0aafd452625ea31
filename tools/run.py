"""`minixla-run`: run a program, or a StableHLO-style test file, on a backend.

    minixla-run prog.mlir x.npy y.npy          # runs @main, prints the results
    minixla-run tests.mlir --split-input-file  # PASS/FAIL per case + "N passed, M failed"
    minixla-run prog.mlir --check-each-pass -p hlo-to-cpu  # first pass that changes results

`stablehlo.*` input is read as `hlo.*`. A file without `--split-input-file`
is also run as a test file when it holds `check.*` ops and neither inputs nor
`--entry` are given. Exit code 1 on invalid input, a failed check or a failed
case; diagnostics are MLIR-style and never a traceback.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from minixla.dialects.diagnostics import DiagnosticError
from minixla.tools.bisect import BisectError
from minixla.tools.testfile import (
    failure_reason,
    format_result,
    functions,
    load_module,
    pick_entry,
    run_test_text,
    summary,
)


def _arg_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="minixla-run", description=__doc__.split("\n\n")[0])
    p.add_argument("file", help="input .mlir file ('-' for stdin)")
    p.add_argument("inputs", nargs="*", help="arguments of the entry function, as .npy files")
    p.add_argument("--backend", default="interpreter", help="backend name (default: interpreter)")
    p.add_argument("--entry", default=None, help="function to run (default: @main or the only public one)")
    p.add_argument("--split-input-file", action="store_true",
                   help="treat the file as test cases separated by '// -----'")
    p.add_argument("--check-each-pass", action="store_true",
                   help="run -p pass by pass, evaluating after each; name the first pass that changes results")
    p.add_argument("-p", "--passes", default="hlo-optimize,hlo-to-cpu", help="pipeline for --check-each-pass")
    from minixla.tools.bisect import add_arguments

    add_arguments(p)
    return p


def check_each_pass(text: str, filename: str, args) -> int:
    """`--check-each-pass`: the bisection of `minixla-opt --bisect` (tools/bisect.py)."""
    from minixla.dialects import load_all
    from minixla.tools.bisect import bisect, load_inputs

    module = load_module(text, filename, load_all())
    name = pick_entry(module, args.entry)
    fn = next(f for f in functions(module) if f.sym_name.data == name)
    inputs = ([np.load(p, allow_pickle=False) for p in args.inputs] if args.inputs
              else load_inputs(args.inputs_npz, fn) if args.inputs_npz else None)
    report = bisect(module, args.passes, inputs, entry=name, seed=args.seed, rtol=args.rtol, atol=args.atol)
    sys.stdout.write(report.format())
    return 0 if report.first_failure is None else 1


def _backend(name: str):
    from minixla.backends import get_backend

    return get_backend(name)


def run_tests(text: str, filename: str, backend_name: str, split: bool) -> int:
    from minixla.dialects import load_all

    results = run_test_text(text, filename, load_all(), _backend(backend_name), split)
    for r in results:
        print(r.report())
    print(summary(results))
    return 0 if results and all(r.passed for r in results) else 1


def run_program(text: str, filename: str, backend_name: str, entry: str | None, inputs: list[str]) -> int:
    from minixla.dialects import load_all

    module = load_module(text, filename, load_all())
    name = pick_entry(module, entry)
    fn = next(f for f in functions(module) if f.sym_name.data == name)
    expected = fn.function_type.inputs.data
    if len(inputs) != len(expected):
        raise ValueError(f"@{name} takes {len(expected)} argument(s), got {len(inputs)} input file(s)")
    args = [np.load(p, allow_pickle=False) for p in inputs]
    from minixla.passes.trace_events import span

    with span("backend-compile", "compile", backend=backend_name):
        executable = _backend(backend_name).compile(module, name)
    with span(f"@{name}", "call"):
        results = executable(*args)
    for value, t in zip(results, fn.function_type.outputs.data):
        print(format_result(value, str(t)))
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of `minixla-run`; returns the exit code."""
    from minixla.passes.trace_events import start_from_env

    start_from_env()  # MINIXLA_TRACE=path: a Chrome trace of compile and run (docs/tools.md)
    args = _arg_parser().parse_args(argv)
    filename = "<stdin>" if args.file == "-" else args.file
    try:
        text = sys.stdin.read() if args.file == "-" else Path(args.file).read_text()
        if args.check_each_pass:
            return check_each_pass(text, filename, args)
        as_tests = args.split_input_file or (not args.inputs and args.entry is None and "check." in text)
        if as_tests:
            return run_tests(text, filename, args.backend, args.split_input_file)
        return run_program(text, filename, args.backend, args.entry, args.inputs)
    except DiagnosticError as err:
        print(err, file=sys.stderr)
    except (OSError, ValueError, KeyError, BisectError) as err:
        print(f"minixla-run: error: {err}", file=sys.stderr)
    except Exception as err:  # noqa: BLE001 -- failed checks, unsupported ops: one line, no traceback
        print(f"{filename}: error: {failure_reason(err).removeprefix('error: ')}", file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main())
