"""Gradients computed on the host when the graph runs, through an `EagerPyFunc` node.

TF's EagerPyFunc gradient re-runs nothing symbolic: the Python function ran
eagerly, under a tape, and its gradient is that tape's. Here `host_vjp` issues
one EagerPyFunc whose function re-runs `func` under a `GradientTape` on the
forward inputs and returns the tape's gradient for the given output
cotangents (TF keeps the forward tape instead; re-running gives the same
values for the deterministic functions a gradient makes sense of, but repeats
side effects). Eagerly the EagerPyFunc runs at once; inside `tf.function`
it is a host node of the traced graph, which runs without jit only, as the
forward py_function does (with jit, TF's "unsupported operations" error).

The same mechanism differentiates TF ops recorded inside `tf.function` with an
input of unknown static shape (downstream of a py_function), whose
decomposition cannot be traced: `runtime_gradient` runs the op's own gradient
(its registered rule or its decomposition's) eagerly on the runtime values.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from minixla.frontend.autodiff.tape import RUNTIME_GRADIENT, differentiable


def host_vjp(b, func: Callable, xs: Sequence, cts: Sequence) -> list:
    """Cotangents of `xs` (builder values) for `func(*xs)` (eager TF code) given the cotangents `cts`
    of its outputs: one per x, None where x is not differentiable."""
    want = [i for i, x in enumerate(xs) if differentiable(x.dtype)]
    if not want:
        return [None] * len(xs)
    n = len(xs)

    def vjp(*args):
        from minixla.frontend.autodiff.gradient_tape import GradientTape

        inputs, dys = list(args[:n]), list(args[n:])
        with GradientTape() as tape:
            for i in want:
                tape.watch(inputs[i])
            outs = func(*inputs)
        outs = list(outs) if isinstance(outs, (list, tuple)) else [outs]
        return tape.gradient(outs, [inputs[i] for i in want], output_gradients=dys[:len(outs)],
                             unconnected_gradients="zero")

    res = b.tf_op("EagerPyFunc", list(xs) + list(cts), func=vjp, Tout=tuple(xs[i].dtype for i in want),
                  static_shapes=tuple(None if xs[i].shape is None else tuple(xs[i].shape) for i in want))
    out: list = [None] * n
    for i, r in zip(want, res):
        out[i] = r
    return out


def runtime_gradient(opdef) -> Callable:
    """A gradient rule (`register_gradient` form) for TF op `opdef` that runs it under a tape on the host."""
    def rule(b, op, *cts):
        slots = [i for i in range(len(op.inputs)) if not opdef.is_const(i)]
        sizes = [len(op.inputs[i]) if isinstance(op.inputs[i], list) else None for i in slots]
        flat = [v for i in slots for v in (op.inputs[i] if isinstance(op.inputs[i], list) else [op.inputs[i]])]

        def func(*xs):
            from minixla.frontend.execute import execute

            args, it = list(op.inputs), iter(xs)
            for i, size in zip(slots, sizes):
                args[i] = next(it) if size is None else [next(it) for _ in range(size)]
            return execute(opdef.name, args, op.attrs)

        grads = iter(host_vjp(b, func, flat, cts))
        out: list = [None] * len(op.inputs)
        for i, size in zip(slots, sizes):
            out[i] = next(grads) if size is None else [next(grads) for _ in range(size)]
        return out

    return rule


RUNTIME_GRADIENT[0] = runtime_gradient
