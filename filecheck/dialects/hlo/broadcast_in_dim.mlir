// RUN: minixla-opt %s --print-op-generic | minixla-opt | filecheck %s

func.func @broadcast_in_dim(%s: tensor<f32>, %v: tensor<3xi8>, %m: tensor<1x3xbf16>, %e: tensor<0xi1>) {
  %a = hlo.broadcast_in_dim %s, dims = [] : (tensor<f32>) -> tensor<2x3xf32>
  %b = hlo.broadcast_in_dim %v, dims = [1] : (tensor<3xi8>) -> tensor<2x3xi8>
  %c = hlo.broadcast_in_dim %m, dims = [0, 2] : (tensor<1x3xbf16>) -> tensor<4x5x3xbf16>
  %d = hlo.broadcast_in_dim %m, dims = [1, 0] : (tensor<1x3xbf16>) -> tensor<3x7xbf16>
  %f = hlo.broadcast_in_dim %e, dims = [1] {tag} : (tensor<0xi1>) -> tensor<2x0xi1>
  %g = hlo.broadcast_in_dim %s, dims = [] : (tensor<f32>) -> tensor<f32>
  func.return
}
// CHECK-LABEL: func.func @broadcast_in_dim(%s: tensor<f32>, %v: tensor<3xi8>, %m: tensor<1x3xbf16>, %e: tensor<0xi1>) {
// CHECK-NEXT:  %a = hlo.broadcast_in_dim %s, dims = [] : (tensor<f32>) -> tensor<2x3xf32>
// CHECK-NEXT:  %b = hlo.broadcast_in_dim %v, dims = [1] : (tensor<3xi8>) -> tensor<2x3xi8>
// CHECK-NEXT:  %c = hlo.broadcast_in_dim %m, dims = [0, 2] : (tensor<1x3xbf16>) -> tensor<4x5x3xbf16>
// CHECK-NEXT:  %d = hlo.broadcast_in_dim %m, dims = [1, 0] : (tensor<1x3xbf16>) -> tensor<3x7xbf16>
// CHECK-NEXT:  %f = hlo.broadcast_in_dim %e, dims = [1] {tag} : (tensor<0xi1>) -> tensor<2x0xi1>
// CHECK-NEXT:  %g = hlo.broadcast_in_dim %s, dims = [] : (tensor<f32>) -> tensor<f32>
// CHECK-NEXT:  func.return
// CHECK-NEXT:  }
