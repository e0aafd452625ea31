// RUN: minixla-opt %s --print-op-generic | minixla-opt | filecheck %s

func.func @select(%p: tensor<i1>, %q: tensor<2x3xi1>, %a: tensor<2x3xf32>, %u: tensor<ui16>, %e: tensor<0xi8>, %pe: tensor<0xi1>) {
  %x = hlo.select %p, %a, %a : (tensor<i1>, tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %y = hlo.select %q, %a, %a : (tensor<2x3xi1>, tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %z = hlo.select %p, %u, %u : tensor<i1>, tensor<ui16>
  %w = hlo.select %pe, %e, %e {tag} : tensor<0xi1>, tensor<0xi8>
  %v = hlo.select %p, %p, %p : tensor<i1>
  func.return
}
// CHECK-LABEL: func.func @select(%p: tensor<i1>, %q: tensor<2x3xi1>, %a: tensor<2x3xf32>, %u: tensor<ui16>, %e: tensor<0xi8>, %pe: tensor<0xi1>) {
// CHECK-NEXT:  %x = hlo.select %p, %a, %a : (tensor<i1>, tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:  %y = hlo.select %q, %a, %a : (tensor<2x3xi1>, tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:  %z = hlo.select %p, %u, %u : (tensor<i1>, tensor<ui16>, tensor<ui16>) -> tensor<ui16>
// CHECK-NEXT:  %w = hlo.select %pe, %e, %e {tag} : (tensor<0xi1>, tensor<0xi8>, tensor<0xi8>) -> tensor<0xi8>
// CHECK-NEXT:  %v = hlo.select %p, %p, %p : (tensor<i1>, tensor<i1>, tensor<i1>) -> tensor<i1>
// CHECK-NEXT:  func.return
// CHECK-NEXT:  }
