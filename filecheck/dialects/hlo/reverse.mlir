// RUN: minixla-opt %s --print-op-generic | minixla-opt | filecheck %s

func.func @reverse(%a: tensor<2x3xf32>, %i: tensor<4xi32>, %s: tensor<ui8>, %e: tensor<0x2xbf16>) {
  %x = hlo.reverse %a, dims = [0, 1] : tensor<2x3xf32>
  %y = hlo.reverse %i, dims = [0] : tensor<4xi32>
  %z = hlo.reverse %s, dims = [] : tensor<ui8>
  %w = hlo.reverse %e, dims = [1] {tag} : tensor<0x2xbf16>
  %v = hlo.reverse %a, dims = [1] : (tensor<2x3xf32>) -> tensor<2x3xf32>
  func.return
}
// CHECK-LABEL: func.func @reverse(%a: tensor<2x3xf32>, %i: tensor<4xi32>, %s: tensor<ui8>, %e: tensor<0x2xbf16>) {
// CHECK-NEXT:  %x = hlo.reverse %a, dims = [0, 1] : tensor<2x3xf32>
// CHECK-NEXT:  %y = hlo.reverse %i, dims = [0] : tensor<4xi32>
// CHECK-NEXT:  %z = hlo.reverse %s, dims = [] : tensor<ui8>
// CHECK-NEXT:  %w = hlo.reverse %e, dims = [1] {tag} : tensor<0x2xbf16>
// CHECK-NEXT:  %v = hlo.reverse %a, dims = [1] : tensor<2x3xf32>
// CHECK-NEXT:  func.return
// CHECK-NEXT:  }
