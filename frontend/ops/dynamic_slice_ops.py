"""`XlaDynamicSlice` / `XlaDynamicUpdateSlice`: the tf2xla ops `tf.map_fn`, `tf.scan` and `tf.TensorArray`
lower to inside a traced loop (one element of the leading dimension read / written at a run-time index).

As TF's: `start_indices`/`indices` is a 1-D integer tensor with one entry per dimension of `input`
(clamped into range, like hlo.dynamic_slice), `size_indices` a compile-time constant.
"""

from __future__ import annotations

import numpy as np

from minixla.frontend.ops.registry import REQUIRED, op_error, register


def _starts(b, op, idx, rank):
    if tuple(idx.shape) != (rank,):
        raise op_error(op, f"indices must be a vector with length equal to the input rank {rank}, "
                           f"got shape [{','.join(map(str, idx.shape))}]")
    return [b.reshape(b.slice(idx, [d], [d + 1]), []) for d in range(rank)]


def xla_dynamic_slice(b, input, start_indices, size_indices):
    sizes = [int(s) for s in np.asarray(size_indices).reshape(-1)]
    return b.dynamic_slice(input, _starts(b, "XlaDynamicSlice", start_indices, len(input.shape)), sizes)


def xla_dynamic_update_slice(b, input, update, indices):
    if len(update.shape) != len(input.shape):
        raise op_error("XlaDynamicUpdateSlice", "update must have the rank of input")
    return b.dynamic_update_slice(input, update, _starts(b, "XlaDynamicUpdateSlice", indices, len(input.shape)))


register("XlaDynamicSlice", ("input", "start_indices", "size_indices"), xla_dynamic_slice,
         const_inputs=("size_indices",), typed=("input",))
register("XlaDynamicUpdateSlice", ("input", "update", "indices"), xla_dynamic_update_slice,
         typed=("input", "update"))


def case_(b, branch_index, input, branches, is_stateless=True, output_shapes=()):
    """TF's `Case` (tf.switch_case): `hlo.case` whose regions replay the branch functions."""
    from minixla.frontend.ops.control_flow_ops import lookup, replay

    fns = [lookup(f) for f in branches]
    idx = branch_index
    if tuple(idx.shape) != ():
        raise op_error("Case", f"branch_index must be a scalar, got shape [{','.join(map(str, idx.shape))}]")
    if np.dtype(idx.dtype) != np.int32:
        idx = b.convert(idx, np.int32)
    outs = b.case(idx, list(input), [(lambda f: lambda bb, vals: replay(bb, f, vals))(f) for f in fns])
    return tuple(outs)


register("Case", ("branch_index", "*input"), case_,
         attrs={"branches": REQUIRED, "is_stateless": True, "output_shapes": ()}, typed=())
