// RUN: minixla-opt %s -p toy-fold-scales | filecheck %s

func.func @chain(%x: tensor<4xf32>) -> tensor<4xf32> {
  %a = toy.scale %x by 2.0 : tensor<4xf32>
  %b = toy.scale %a by 3.0 : tensor<4xf32>
  %c = toy.scale %b by 0.5 : tensor<4xf32>
  func.return %c : tensor<4xf32>
}
// CHECK-LABEL: func.func @chain
// CHECK-NEXT:    %{{.*}} = toy.scale %x by 3.0 : tensor<4xf32>
// CHECK-NEXT:    func.return

func.func @by_one(%x: tensor<4xf32>) -> tensor<4xf32> {
  %a = toy.scale %x by 1.0 : tensor<4xf32>
  func.return %a : tensor<4xf32>
}
// CHECK-LABEL: func.func @by_one
// CHECK-NEXT:    func.return %x : tensor<4xf32>
