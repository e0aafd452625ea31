"""Reverse-mode autodiff: one VJP rule per core hlo op, on the builder API.

`tape` records the hlo primitives of every TF op whose inputs a tape tracks
(through a recording builder over the eager or the graph builder);
`backprop` runs the VJP rules (`vjp_elementwise`, `vjp_shape`,
`vjp_structured`, `vjp_linalg`, `vjp_complex`) backwards over the records; `gradient_tape` is the public
`tf.GradientTape`. Inside `tf.function` the primitives are `XlaHlo` graph
nodes (`graph_builder`), so the backward pass is traced and compiled with the
forward one. TF ops with their own gradient (`ops.registry.register_gradient`,
e.g. Relu, EagerPyFunc) are recorded as one unit with that rule;
`host_vjp` differentiates Python functions on the host (py_function).
"""

from minixla.frontend.autodiff.backprop import VJPS, NoGradientError, backprop
from minixla.frontend.autodiff import vjp_elementwise, vjp_linalg, vjp_shape, vjp_structured  # noqa: E402,F401  (fill VJPS)
from minixla.frontend.autodiff import vjp_complex  # noqa: E402,F401  (complex parts and FFTs)
from minixla.frontend.autodiff import host_vjp  # noqa: E402,F401  (installs tape.RUNTIME_GRADIENT)
from minixla.frontend.autodiff.gradient_tape import GradientTape, UnconnectedGradients

__all__ = ["VJPS", "GradientTape", "NoGradientError", "UnconnectedGradients", "backprop"]
