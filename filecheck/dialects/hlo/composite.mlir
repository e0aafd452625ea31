// RUN: minixla-opt %s | filecheck %s

func.func private @add_n.impl(%x: tensor<4xi32>) -> tensor<4xi32> {
  func.return %x : tensor<4xi32>
}
func.func @composite(%x: tensor<4xi32>) -> tensor<4xi32> {
  %a = hlo.composite "my.add_n" %x {composite_attributes = {n = 2 : i64}, decomposition = @add_n.impl} : (tensor<4xi32>) -> tensor<4xi32>
  %b = hlo.composite "my.add_n" %a {decomposition = @add_n.impl, version = 3 : i32} : (tensor<4xi32>) -> tensor<4xi32>
  func.return %b : tensor<4xi32>
}
// CHECK-LABEL: func.func @composite(%x: tensor<4xi32>) -> tensor<4xi32> {
// CHECK-NEXT:   %a = hlo.composite "my.add_n" %x {composite_attributes = {n = 2 : i64}, decomposition = @add_n.impl} : (tensor<4xi32>) -> tensor<4xi32>
// CHECK-NEXT:   %b = hlo.composite "my.add_n" %a {decomposition = @add_n.impl, version = 3 : i32} : (tensor<4xi32>) -> tensor<4xi32>
// CHECK-NEXT:   func.return %b : tensor<4xi32>
// CHECK-NEXT: }
