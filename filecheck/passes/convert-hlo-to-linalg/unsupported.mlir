// RUN: not minixla-opt %s -p convert-hlo-to-linalg 2>&1 | filecheck %s

// Complex element types have no lowering: a diagnostic naming the op and the pass.
// CHECK: convert-hlo-to-linalg: cannot lower 'hlo.add': element type complex<f32> (complex) is not supported
// CHECK-NOT: Traceback
func.func @cadd(%x: tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>> {
  %r = hlo.add %x, %x : tensor<4xcomplex<f32>>
  return %r : tensor<4xcomplex<f32>>
}
