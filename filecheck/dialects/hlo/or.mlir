// RUN: minixla-opt %s --print-op-generic | minixla-opt | filecheck %s

func.func @or(%p: tensor<i1>, %s: tensor<3xi16>, %u: tensor<ui32>) {
  %x = hlo.or %p, %p : tensor<i1>
  %y = hlo.or %s, %s : tensor<3xi16>
  %z = hlo.or %u, %u : tensor<ui32>
  func.return
}
// CHECK-LABEL: func.func @or(%p: tensor<i1>, %s: tensor<3xi16>, %u: tensor<ui32>) {
// CHECK-NEXT:  %x = hlo.or %p, %p : tensor<i1>
// CHECK-NEXT:  %y = hlo.or %s, %s : tensor<3xi16>
// CHECK-NEXT:  %z = hlo.or %u, %u : tensor<ui32>
// CHECK-NEXT:  func.return
// CHECK-NEXT:  }
