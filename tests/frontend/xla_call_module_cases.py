"""XlaCallModule cases (frontend/ops/xla_call_module_ops.py): StableHLO modules as MLIR text, written the way
jax.jit(...).lower(...).as_text() prints them, recorded from real TensorFlow by `record_tf_goldens.py --cases
tests/frontend/xla_call_module_cases.py --out tests/golden/xla_call_module` and replayed by
tests/frontend/test_xla_call_module_goldens.py. Same format as op_cases.py; numpy only.
"""

from __future__ import annotations

import numpy as np

R = np.random.default_rng(2)
F = np.float32

SCALE_SIN = """
module @jit_f {
  func.func public @main(%arg0: tensor<2x3xf32>, %arg1: tensor<3xf32>) -> (tensor<2x3xf32>) {
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [1] : (tensor<3xf32>) -> tensor<2x3xf32>
    %1 = stablehlo.multiply %arg0, %0 : tensor<2x3xf32>
    %2 = stablehlo.sine %1 : tensor<2x3xf32>
    return %2 : tensor<2x3xf32>
  }
}
"""

DENSE_RELU_SUM = """
module @jit_g {
  func.func public @main(%arg0: tensor<3x4xf32>, %arg1: tensor<4x2xf32>) -> (tensor<3x2xf32>, tensor<3xf32>) {
    %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] : (tensor<3x4xf32>, tensor<4x2xf32>) -> tensor<3x2xf32>
    %1 = call @relu(%0) : (tensor<3x2xf32>) -> tensor<3x2xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %2 = stablehlo.reduce(%arg0 init: %cst) applies stablehlo.add across dimensions = [1] : (tensor<3x4xf32>, tensor<f32>) -> tensor<3xf32>
    return %1, %2 : tensor<3x2xf32>, tensor<3xf32>
  }
  func.func private @relu(%arg0: tensor<3x2xf32>) -> tensor<3x2xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<3x2xf32>
    %1 = stablehlo.maximum %arg0, %0 : tensor<3x2xf32>
    return %1 : tensor<3x2xf32>
  }
}
"""

INT_SELECT = """
module @jit_h {
  func.func public @main(%arg0: tensor<5xi32>) -> (tensor<5xi32>) {
    %c = stablehlo.constant dense<2> : tensor<5xi32>
    %0 = stablehlo.compare  GT, %arg0, %c,  SIGNED : (tensor<5xi32>, tensor<5xi32>) -> tensor<5xi1>
    %1 = stablehlo.multiply %arg0, %arg0 : tensor<5xi32>
    %2 = stablehlo.select %0, %1, %arg0 : tensor<5xi1>, tensor<5xi32>
    return %2 : tensor<5xi32>
  }
}
"""


def call_module(tf, args, module: str, sout, tout):
    """XlaCallModule by its TF name: TF keeps it in gen_xla_ops, minixla's RawOp calls any recorded OpDef."""
    kwargs = dict(args=args, version=9, module=module, Sout=sout, Tout=tout, platforms=["CPU"])
    if tf.__name__ == "tensorflow":
        from tensorflow.compiler.tf2xla.ops import gen_xla_ops

        return gen_xla_ops.xla_call_module(**kwargs)
    from minixla.frontend.raw_ops import RawOp

    return RawOp("XlaCallModule")(**kwargs)


X23, Y3 = R.standard_normal((2, 3)).astype(F), R.standard_normal(3).astype(F)
A34, B42 = R.standard_normal((3, 4)).astype(F), R.standard_normal((4, 2)).astype(F)
I5 = np.array([-3, 0, 2, 3, 7], np.int32)

CASES = {
    "xcm_scale_sin": (lambda tf, x, y: call_module(tf, [x, y], SCALE_SIN, [(2, 3)], [tf.float32]), [X23, Y3],
                      np.sin(X23 * Y3)),
    "xcm_dense_relu_sum": (lambda tf, a, b: call_module(tf, [a, b], DENSE_RELU_SUM, [(3, 2), (3,)],
                                                        [tf.float32, tf.float32]), [A34, B42],
                           None),
    "xcm_int_select": (lambda tf, x: call_module(tf, [x], INT_SELECT, [(5,)], [tf.int32]), [I5],
                       np.where(I5 > 2, I5 * I5, I5)),
    # inside a larger program: TF ops before and after the call
    "xcm_in_program": (lambda tf, x, y: tf.reduce_sum(call_module(tf, [tf.exp(x), y * 2.0], SCALE_SIN, [(2, 3)],
                                                                  [tf.float32])[0], axis=1), [X23, Y3], None),
}
