// RUN: not minixla-opt %s -p tf-legalize-to-hlo 2>&1 | filecheck %s
// RUN: not minixla-opt %s -p tf-legalize-to-hlo --split-input-file 2>&1 | filecheck %s --check-prefix=SPLIT

// A shape operand that is not a compile-time constant.
func.func @dynamic_shape(%x: tensor<6xf32>, %s: tensor<2xi32>) -> tensor<2x3xf32> {
  %r = "tf.Reshape"(%x, %s) : (tensor<6xf32>, tensor<2xi32>) -> tensor<2x3xf32>
  func.return %r : tensor<2x3xf32>
}
// CHECK: Input 1 to node `Reshape` with op Reshape must be a compile-time constant.

// -----

func.func @unsupported(%x: tensor<2xf32>) -> tensor<2x!tf_type.string> {
  %r = "tf.AsString"(%x) : (tensor<2xf32>) -> tensor<2x!tf_type.string>
  func.return %r : tensor<2x!tf_type.string>
}
// SPLIT: Detected unsupported operations when trying to compile graph unsupported[_XlaMustCompile=true] on XLA_CPU_JIT: AsString
