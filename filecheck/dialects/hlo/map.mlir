// RUN: minixla-opt %s --print-op-generic | minixla-opt | filecheck %s

func.func @map(%x: tensor<2x3xf32>, %y: tensor<2x3xf32>) -> tensor<2x3xi1> {
  %r = "hlo.map"(%x, %y) <{dimensions = array<i64: 0, 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %c = hlo.compare GT, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    hlo.return %c : tensor<i1>
  }) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
  func.return %r : tensor<2x3xi1>
}
// CHECK-LABEL: func.func @map(%x: tensor<2x3xf32>, %y: tensor<2x3xf32>) -> tensor<2x3xi1> {
// CHECK-NEXT:   %r = "hlo.map"(%x, %y) <{dimensions = array<i64: 0, 1>}> ({
// CHECK-NEXT:   ^bb0(%a: tensor<f32>, %b: tensor<f32>):
// CHECK-NEXT:     %c = hlo.compare GT, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
// CHECK-NEXT:     hlo.return %c : tensor<i1>
// CHECK-NEXT:   }) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
// CHECK-NEXT:   func.return %r : tensor<2x3xi1>
// CHECK-NEXT: }
