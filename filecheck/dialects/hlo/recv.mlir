// RUN: minixla-opt %s --print-op-generic | minixla-opt | filecheck %s

func.func @recv(%x: tensor<2x4xf32>, %t: !hlo.token) {
  %v, %t4 = "hlo.recv"(%t) <{channel_handle = #hlo.channel_handle<handle = 3, type = 3>, is_host_transfer = true}> : (!hlo.token) -> (tensor<2x4xf32>, !hlo.token)
  func.return
}
// CHECK-LABEL: func.func @recv(%x: tensor<2x4xf32>, %t: !hlo.token) {
// CHECK-NEXT: %v, %t4 = "hlo.recv"(%t) <{channel_handle = #hlo.channel_handle<handle = 3, type = 3>, is_host_transfer = true}> : (!hlo.token) -> (tensor<2x4xf32>, !hlo.token)
// CHECK-NEXT: func.return
// CHECK-NEXT: }
