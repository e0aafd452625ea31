// RUN: minixla-opt %s | filecheck %s
// RUN: minixla-opt %s | minixla-opt | filecheck %s
// RUN: minixla-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC
// RUN: minixla-opt %s --print-op-generic | minixla-opt | filecheck %s

// CHECK-LABEL: func.func @f
// CHECK-NEXT:    %0 = hlo.multiply %x, %x : tensor<4xf32>
// CHECK-NEXT:    %1 = hlo.compare GT, %0, %x : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
// CHECK-NEXT:    %2 = hlo.select %1, %0, %x : (tensor<4xi1>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:    func.return %2 : tensor<4xf32>
// GENERIC: "hlo.multiply"(%{{.*}}, %{{.*}}) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = hlo.multiply %x, %x : tensor<4xf32>
  %1 = hlo.compare GT, %0, %x : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  %2 = hlo.select %1, %0, %x : tensor<4xi1>, tensor<4xf32>
  func.return %2 : tensor<4xf32>
}
