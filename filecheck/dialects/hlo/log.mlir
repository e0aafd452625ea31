// RUN: minixla-opt %s --print-op-generic | minixla-opt | filecheck %s

func.func @log(%f: tensor<f32>, %z: tensor<2xcomplex<f32>>, %e: tensor<0xf64>) {
  %a = hlo.log %f : tensor<f32>
  %b = hlo.log %z : tensor<2xcomplex<f32>>
  %c = hlo.log %e : tensor<0xf64>
  func.return
}
// CHECK-LABEL: func.func @log(%f: tensor<f32>, %z: tensor<2xcomplex<f32>>, %e: tensor<0xf64>) {
// CHECK-NEXT:  %a = hlo.log %f : tensor<f32>
// CHECK-NEXT:  %b = hlo.log %z : tensor<2xcomplex<f32>>
// CHECK-NEXT:  %c = hlo.log %e : tensor<0xf64>
// CHECK-NEXT:  func.return
// CHECK-NEXT:  }
