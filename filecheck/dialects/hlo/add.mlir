// RUN: minixla-opt %s --print-op-generic | minixla-opt | filecheck %s

func.func @add_types(%p: tensor<2xi1>, %b: tensor<i8>, %u: tensor<3xui64>, %h: tensor<2x2xf16>, %bf: tensor<bf16>, %d: tensor<0x5xf64>, %z: tensor<2xcomplex<f32>>) {
  %0 = hlo.add %p, %p : tensor<2xi1>
  %1 = hlo.add %b, %b : tensor<i8>
  %2 = hlo.add %u, %u : tensor<3xui64>
  %3 = hlo.add %h, %h : tensor<2x2xf16>
  %4 = hlo.add %bf, %bf : tensor<bf16>
  %5 = hlo.add %d, %d : tensor<0x5xf64>
  %6 = hlo.add %z, %z : tensor<2xcomplex<f32>>
  func.return
}
// CHECK-LABEL: func.func @add_types(%p: tensor<2xi1>, %b: tensor<i8>, %u: tensor<3xui64>, %h: tensor<2x2xf16>, %bf: tensor<bf16>, %d: tensor<0x5xf64>, %z: tensor<2xcomplex<f32>>) {
// CHECK-NEXT:  %0 = hlo.add %p, %p : tensor<2xi1>
// CHECK-NEXT:  %1 = hlo.add %b, %b : tensor<i8>
// CHECK-NEXT:  %2 = hlo.add %u, %u : tensor<3xui64>
// CHECK-NEXT:  %3 = hlo.add %h, %h : tensor<2x2xf16>
// CHECK-NEXT:  %4 = hlo.add %bf, %bf : tensor<bf16>
// CHECK-NEXT:  %5 = hlo.add %d, %d : tensor<0x5xf64>
// CHECK-NEXT:  %6 = hlo.add %z, %z : tensor<2xcomplex<f32>>
// CHECK-NEXT:  func.return
// CHECK-NEXT:  }

// Discardable attributes, the functional type and the generic spelling.
func.func @add_forms(%a: tensor<4xi32>, %b: tensor<4xi32>) -> tensor<4xi32> {
  %x = hlo.add %a, %b {tag = "t", n = 3 : i64} : tensor<4xi32>
  %y = hlo.add %x, %b : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  %z = "hlo.add"(%y, %a) : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  func.return %z : tensor<4xi32>
}
// CHECK-LABEL: func.func @add_forms(%a: tensor<4xi32>, %b: tensor<4xi32>) -> tensor<4xi32> {
// CHECK-NEXT:  %x = hlo.add %a, %b {tag = "t", n = 3 : i64} : tensor<4xi32>
// CHECK-NEXT:  %y = hlo.add %x, %b : tensor<4xi32>
// CHECK-NEXT:  %z = hlo.add %y, %a : tensor<4xi32>
// CHECK-NEXT:  func.return %z : tensor<4xi32>
// CHECK-NEXT:  }
