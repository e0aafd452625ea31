// RUN: minixla-opt %s --print-op-generic | minixla-opt | filecheck %s

func.func @shift_left(%b: tensor<4xi8>, %u: tensor<ui32>, %l: tensor<2xi64>) {
  %x = hlo.shift_left %b, %b : tensor<4xi8>
  %y = hlo.shift_left %u, %u : tensor<ui32>
  %z = hlo.shift_left %l, %l : tensor<2xi64>
  func.return
}
// CHECK-LABEL: func.func @shift_left(%b: tensor<4xi8>, %u: tensor<ui32>, %l: tensor<2xi64>) {
// CHECK-NEXT:  %x = hlo.shift_left %b, %b : tensor<4xi8>
// CHECK-NEXT:  %y = hlo.shift_left %u, %u : tensor<ui32>
// CHECK-NEXT:  %z = hlo.shift_left %l, %l : tensor<2xi64>
// CHECK-NEXT:  func.return
// CHECK-NEXT:  }
