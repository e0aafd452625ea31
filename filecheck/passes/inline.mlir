// RUN: minixla-opt %s -p inline | filecheck %s

// A call chain is inlined bottom-up; unused private callees disappear, public ones stay.
func.func private @double(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = hlo.add %x, %x : tensor<4xf32>
  func.return %0 : tensor<4xf32>
}

func.func @quadruple(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = func.call @double(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %1 = func.call @double(%0) : (tensor<4xf32>) -> tensor<4xf32>
  func.return %1 : tensor<4xf32>
}

func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = func.call @quadruple(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %1 = hlo.negate %0 : tensor<4xf32>
  func.return %1 : tensor<4xf32>
}

// CHECK-NOT:   @double
// CHECK:       func.func @quadruple(%x: tensor<4xf32>) -> tensor<4xf32> {
// CHECK-NEXT:    %[[A:.*]] = hlo.add %x, %x : tensor<4xf32>
// CHECK-NEXT:    %[[B:.*]] = hlo.add %[[A]], %[[A]] : tensor<4xf32>
// CHECK-NEXT:    func.return %[[B]] : tensor<4xf32>
// CHECK:       func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
// CHECK-NEXT:    %[[C:.*]] = hlo.add %x, %x : tensor<4xf32>
// CHECK-NEXT:    %[[D:.*]] = hlo.add %[[C]], %[[C]] : tensor<4xf32>
// CHECK-NEXT:    %[[E:.*]] = hlo.negate %[[D]] : tensor<4xf32>
// CHECK-NEXT:    func.return %[[E]] : tensor<4xf32>
// CHECK-NOT:   func.call
