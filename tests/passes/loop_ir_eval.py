"""The loop-IR evaluator now lives in the product (backends/interpreter/loop_ir.py);
the tests keep importing it from here."""

from minixla.backends.interpreter.loop_ir import LoopEvaluator, Return, _u, _wrap, np_dtype

__all__ = ["LoopEvaluator", "Return", "_u", "_wrap", "np_dtype"]
