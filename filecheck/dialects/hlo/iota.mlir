// RUN: minixla-opt %s --print-op-generic | minixla-opt | filecheck %s

func.func @iota() {
  %a = hlo.iota dim = 0 : tensor<4xi32>
  %b = hlo.iota dim = 1 : tensor<2x3xf32>
  %c = hlo.iota dim = 0 : tensor<0xui8>
  %d = hlo.iota dim = 2 {tag} : tensor<1x2x3xbf16>
  %e = hlo.iota dim = 0 : tensor<5xi64>
  %f = "hlo.iota"() <{iota_dimension = 1 : i64}> : () -> tensor<3x4xf64>
  func.return
}
// CHECK-LABEL: func.func @iota() {
// CHECK-NEXT:  %a = hlo.iota dim = 0 : tensor<4xi32>
// CHECK-NEXT:  %b = hlo.iota dim = 1 : tensor<2x3xf32>
// CHECK-NEXT:  %c = hlo.iota dim = 0 : tensor<0xui8>
// CHECK-NEXT:  %d = hlo.iota dim = 2 {tag} : tensor<1x2x3xbf16>
// CHECK-NEXT:  %e = hlo.iota dim = 0 : tensor<5xi64>
// CHECK-NEXT:  %f = hlo.iota dim = 1 : tensor<3x4xf64>
// CHECK-NEXT:  func.return
// CHECK-NEXT:  }
