"""Chapter 5: a new backend target. `toy-trace` runs a module on minixla's reference
interpreter and counts how often each op executes, a profile in the style of XLA's
`--xla_hlo_profile`; registered through the `minixla.backends` entry point, so
`minixla-run --backend toy-trace` and `get_backend("toy-trace")` find it."""

from __future__ import annotations

from collections import Counter

from xdsl.dialects.builtin import ModuleOp

from minixla.backends.interpreter import OP_IMPLS, InterpreterBackend


class TraceBackend:
    name = "toy-trace"
    runs_check_ops = True  # evaluates check.* ops itself, like the interpreter it wraps

    def __init__(self):
        self.profile: Counter[str] = Counter()

    def compile(self, module: ModuleOp, entry: str | None = None):
        exe = InterpreterBackend().compile(module, entry)
        counted = {name: self._counting(name, impl) for name, impl in OP_IMPLS.items()}
        exe._interp.impls = counted  # the wrapped interpreter dispatches through the counting table
        return exe

    def _counting(self, name: str, impl):
        def run(op, args, interp):
            self.profile[name] += 1
            return impl(op, args, interp)

        return run
