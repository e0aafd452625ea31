// RUN: minixla-opt %s --print-op-generic | minixla-opt | filecheck %s

func.func @floor(%f: tensor<2xf32>, %b: tensor<bf16>, %d: tensor<0xf64>) {
  %x = hlo.floor %f : tensor<2xf32>
  %y = hlo.floor %b : tensor<bf16>
  %z = hlo.floor %d : tensor<0xf64>
  func.return
}
// CHECK-LABEL: func.func @floor(%f: tensor<2xf32>, %b: tensor<bf16>, %d: tensor<0xf64>) {
// CHECK-NEXT:  %x = hlo.floor %f : tensor<2xf32>
// CHECK-NEXT:  %y = hlo.floor %b : tensor<bf16>
// CHECK-NEXT:  %z = hlo.floor %d : tensor<0xf64>
// CHECK-NEXT:  func.return
// CHECK-NEXT:  }
