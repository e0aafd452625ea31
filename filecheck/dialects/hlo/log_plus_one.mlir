// RUN: minixla-opt %s --print-op-generic | minixla-opt | filecheck %s

func.func @log_plus_one(%b: tensor<8xbf16>, %d: tensor<1x1xf64>) {
  %x = hlo.log_plus_one %b : tensor<8xbf16>
  %y = hlo.log_plus_one %d : tensor<1x1xf64>
  func.return
}
// CHECK-LABEL: func.func @log_plus_one(%b: tensor<8xbf16>, %d: tensor<1x1xf64>) {
// CHECK-NEXT:  %x = hlo.log_plus_one %b : tensor<8xbf16>
// CHECK-NEXT:  %y = hlo.log_plus_one %d : tensor<1x1xf64>
// CHECK-NEXT:  func.return
// CHECK-NEXT:  }
