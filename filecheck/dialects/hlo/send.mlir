// RUN: minixla-opt %s --print-op-generic | minixla-opt | filecheck %s

func.func @send(%x: tensor<2x4xf32>, %t: !hlo.token) {
  %t3 = "hlo.send"(%x, %t) <{channel_handle = #hlo.channel_handle<handle = 3, type = 2>, is_host_transfer = true}> : (tensor<2x4xf32>, !hlo.token) -> !hlo.token
  func.return
}
// CHECK-LABEL: func.func @send(%x: tensor<2x4xf32>, %t: !hlo.token) {
// CHECK-NEXT: %t3 = "hlo.send"(%x, %t) <{channel_handle = #hlo.channel_handle<handle = 3, type = 2>, is_host_transfer = true}> : (tensor<2x4xf32>, !hlo.token) -> !hlo.token
// CHECK-NEXT: func.return
// CHECK-NEXT: }
