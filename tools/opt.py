"""`minixla-opt`: xdsl-opt with minixla's dialects and passes, and MLIR-style
diagnostics (`file:line:col: error: ...`, exit code 1, no traceback) for bad
input.

    minixla-opt in.mlir -p stablehlo-legalize-to-hlo,canonicalize
    minixla-opt tests.mlir --split-input-file --verify-diagnostics
    minixla-opt in.mlir -p hlo-to-cpu --bisect [--inputs x.npz]  # tools/bisect.py
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import IO

from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass
from xdsl.printer import Printer
from xdsl.xdsl_opt_main import xDSLOptMain

import minixla.backends  # noqa: F401  (hlo-constant-fold's evaluator: the interpreter, on first fold)

from minixla.dialects.diagnostics import (
    Chunk,
    DiagnosticError,
    internal_error_message,
    parse_and_verify,
    split_input,
    verify_module,
)
from minixla.tools.expected_diagnostics import check_chunk as check_expected
from minixla.tools.expected_diagnostics import has_expectations


def _with_tf_table(factory):
    """`factory`, after importing the frontend's TF op table (the tf dialect's ops, tf-legalize-to-hlo's rules)."""

    def load():
        import minixla.frontend.passes  # noqa: F401

        return factory()

    return load


class MinixlaOptMain(xDSLOptMain):
    """xDSLOptMain with our registries, our chunking and our diagnostics."""

    version_format = "minixla-opt (xdsl {xdsl_version})"

    def register_all_dialects(self) -> None:
        from minixla.dialects import _tf_dialects, load_all

        # the tf dialect holds the TF op table, which importing the frontend fills (~40% of a run's
        # start-up): done when a tf op is first parsed, not for every run
        for name, factory in _tf_dialects().items():
            self.ctx.register_dialect(name, _with_tf_table(factory))
        load_all(self.ctx)
        try:  # plugins of other projects, if any
            from xdsl.universe import Universe

            for name, factory in Universe.get_multiverse().all_dialects.items():
                if name not in self.ctx.registered_dialect_names:
                    self.ctx.register_dialect(name, factory)
        except Exception as err:  # noqa: BLE001 -- a broken plugin must not break our tool
            print(f"minixla-opt: warning: ignoring xdsl.universe plugins: {err}", file=sys.stderr)

    def register_all_passes(self) -> None:
        from minixla.passes import available_passes

        for name, factory in available_passes().items():
            self.register_pass(name, _with_tf_table(factory) if name == "tf-legalize-to-hlo" else factory)

    def register_all_arguments(self, arg_parser: argparse.ArgumentParser) -> None:
        super().register_all_arguments(arg_parser)
        arg_parser.add_argument("--mlir-print-ir-after-all", action="store_true",
                                help="print the IR after every pass to stderr (MLIR's spelling)")
        arg_parser.add_argument("--print-ir-after-all", dest="mlir_print_ir_after_all",
                                action="store_true", help=argparse.SUPPRESS)
        arg_parser.add_argument("--list-passes", action="store_true",
                                help="list every pass and named pipeline (ours, plugins', xDSL's) and exit")
        arg_parser.add_argument("--list-dialects", action="store_true",
                                help="list every dialect this tool reads (ours, plugins', xDSL's) and exit")
        from minixla.tools import bisect

        arg_parser.add_argument("--bisect", action="store_true", help="evaluate the IR after every pass of -p "
                                "on the same inputs; report the first pass that changes results (exit 1)")
        arg_parser.add_argument("--bisect-entry", default=None, help="bisect: function to run (default @main)")
        bisect.add_arguments(arg_parser)

    def setup_pipeline(self) -> None:
        from minixla.passes import build_pipeline

        def callback(prev: ModulePass | None, module: ModuleOp, nxt: ModulePass | None) -> None:
            if prev is None:
                return
            if not self.args.disable_verify:
                verify_module(module, self.get_input_name())
            if self.args.mlir_print_ir_after_all:
                self._dump(prev, module, sys.stderr)
            elif self.args.print_between_passes and nxt is not None:
                print(f"IR after {prev.name}:")
                Printer(stream=sys.stdout).print_op(module)
                print("\n\n\n")

        self.pipeline = build_pipeline(self.args.passes, callback)

    def _dump(self, prev: ModulePass, module: ModuleOp, stream: IO[str]) -> None:
        print(f"// -----// IR Dump After {type(prev).__name__} ({prev.name}) //----- //", file=stream)
        Printer(stream=stream, print_generic_format=self.args.print_op_generic).print_op(module)
        print(file=stream)

    def run(self) -> int:  # type: ignore[override]
        """Process every chunk; report diagnostics; return the exit code."""
        if self.args.list_passes or self.args.list_dialects:
            from minixla.tools.listing import list_dialects, list_passes

            print(list_passes() if self.args.list_passes else list_dialects(self.ctx))
            return 0
        name = self.get_input_name()
        stream, _ = self.get_input_stream()
        try:
            text = stream.read().decode("utf-8", errors="replace")
        finally:
            if stream is not sys.stdin.buffer:
                stream.close()
        out = self.prepare_output()
        if self.args.verify_diagnostics and has_expectations(text):
            return self._verify_expected(text, name)
        failed = False
        try:
            for chunk in split_input(text, self.args.split_input_file):
                if chunk.index > 0:
                    out.write("// -----\n")
                failed |= not self._process(chunk, name, out)
                out.flush()
        finally:
            if out is not sys.stdout:
                out.close()
        expect_errors = self.args.verify_diagnostics or self.args.parsing_diagnostics
        return 0 if expect_errors or not failed else 1

    def _process(self, chunk: Chunk, name: str, out: IO[str]) -> bool:
        try:
            module = parse_and_verify(chunk.text, name, self.ctx, chunk.line_offset)
            if self.args.bisect:
                return self._bisect(module, out)
            self.apply_passes(module)
            out.write(self.output_resulting_program(module))
            return True
        except DiagnosticError as err:
            self._report(str(err))
        except Exception as err:  # noqa: BLE001 -- a failing pass reports, it does not crash
            self._report(f"{name}: error: {internal_error_message(err, 'running passes')}".split("\n\n", 1)[0])
        return False

    def _verify_expected(self, text: str, name: str) -> int:
        """MLIR semantics: exit 0 iff the diagnostics match the expected-* annotations."""
        def produce(chunk: Chunk) -> DiagnosticError | None:
            try:
                self.apply_passes(parse_and_verify(chunk.text, name, self.ctx, chunk.line_offset))
            except DiagnosticError as err:
                return err
            except Exception as err:  # noqa: BLE001 -- a failing pass is a diagnostic to compare
                return DiagnosticError(name, 0, 0, internal_error_message(err, "running passes"))
            return None

        problems = [p for chunk in split_input(text, self.args.split_input_file)
                    for p in check_expected(chunk, name, produce)]
        for problem in problems:
            print(problem, file=sys.stderr)
        return 1 if problems else 0

    def _bisect(self, module: ModuleOp, out: IO[str]) -> bool:
        from minixla.tools.bisect import BisectError, run_cli

        a = self.args
        try:
            return run_cli(module, a.passes, a.inputs_npz, a.bisect_entry, a.seed, a.rtol, a.atol, out)
        except (BisectError, ValueError, OSError) as err:
            self._report(f"{self.get_input_name()}: error: {err}")
            return False

    def _report(self, message: str) -> None:
        expect_errors = self.args.verify_diagnostics or self.args.parsing_diagnostics
        print(message, file=sys.stdout if expect_errors else sys.stderr)


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of `minixla-opt`; returns the exit code."""
    from minixla.passes.trace_events import start_from_env

    start_from_env()  # MINIXLA_TRACE=path: a Chrome trace of the passes (docs/tools.md)
    try:
        tool = MinixlaOptMain(description="minixla modular optimizer driver", args=argv)
    except ValueError as err:  # unknown pass, bad pass option, unknown target
        print(f"minixla-opt: error: {err}", file=sys.stderr)
        return 1
    except OSError as err:
        print(f"minixla-opt: error: {err}", file=sys.stderr)
        return 1
    try:
        return tool.run()
    except OSError as err:
        print(f"minixla-opt: error: {err}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
