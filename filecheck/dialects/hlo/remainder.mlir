// RUN: minixla-opt %s --print-op-generic | minixla-opt | filecheck %s

func.func @remainder(%i: tensor<5xi8>, %f: tensor<f32>, %u: tensor<2xui64>) {
  %a = hlo.remainder %i, %i : tensor<5xi8>
  %b = hlo.remainder %f, %f : tensor<f32>
  %c = hlo.remainder %u, %u : tensor<2xui64>
  func.return
}
// CHECK-LABEL: func.func @remainder(%i: tensor<5xi8>, %f: tensor<f32>, %u: tensor<2xui64>) {
// CHECK-NEXT:  %a = hlo.remainder %i, %i : tensor<5xi8>
// CHECK-NEXT:  %b = hlo.remainder %f, %f : tensor<f32>
// CHECK-NEXT:  %c = hlo.remainder %u, %u : tensor<2xui64>
// CHECK-NEXT:  func.return
// CHECK-NEXT:  }
