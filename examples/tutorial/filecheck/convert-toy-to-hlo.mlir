// RUN: minixla-opt %s -p convert-toy-to-hlo | filecheck %s

func.func @lower(%x: tensor<4xf32>) -> tensor<4xf32> {
  %a = toy.scale %x by 2.0 : tensor<4xf32>
  %c = toy.clamp %a between 0.0 and 1.0 : tensor<4xf32>
  func.return %c : tensor<4xf32>
}
// CHECK-LABEL: func.func @lower
// CHECK-NEXT:    %[[TWO:.*]] = hlo.constant dense<2.000000e+00> : tensor<4xf32>
// CHECK-NEXT:    %[[A:.*]] = hlo.multiply %x, %[[TWO]] : tensor<4xf32>
// CHECK-NEXT:    %[[LO:.*]] = hlo.constant dense<0.000000e+00> : tensor<4xf32>
// CHECK-NEXT:    %[[HI:.*]] = hlo.constant dense<1.000000e+00> : tensor<4xf32>
// CHECK-NEXT:    %{{.*}} = hlo.clamp %[[LO]], %[[A]], %[[HI]] : tensor<4xf32>
// CHECK-NOT:     toy.
