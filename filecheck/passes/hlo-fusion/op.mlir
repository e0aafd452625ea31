// RUN: minixla-opt %s --split-input-file | filecheck %s
// RUN: minixla-opt %s --split-input-file --print-op-generic | minixla-opt --split-input-file | filecheck %s

// CHECK-LABEL: func.func @roundtrip
// CHECK-NEXT:    %r = hlo.fusion kind = loop (%p = %x) : (tensor<4xf32>) -> tensor<4xf32> {
// CHECK-NEXT:      %n = hlo.negate %p : tensor<4xf32>
// CHECK-NEXT:      hlo.return %n : tensor<4xf32>
// CHECK-NEXT:    }
func.func @roundtrip(%x: tensor<4xf32>) -> tensor<4xf32> {
  %r = hlo.fusion kind = loop (%p = %x) : (tensor<4xf32>) -> tensor<4xf32> {
    %n = hlo.negate %p : tensor<4xf32>
    hlo.return %n : tensor<4xf32>
  }
  func.return %r : tensor<4xf32>
}

