// RUN: minixla-opt %s --split-input-file -p "hlo-complex-to-real{fuse=false}" | filecheck %s

// A complex argument or result is tensor<Sx2xF> at the boundary (numpy's interleaved layout):
// parts are sliced out at entry and interleaved back at the return by a select on the last index
// (fusible, unlike concatenate: the whole chain becomes one loop). complex<f32> products run in f64.
func.func @mul(%a: tensor<3xcomplex<f32>>, %b: tensor<3xcomplex<f32>>) -> tensor<3xcomplex<f32>> {
  %0 = hlo.multiply %a, %b : tensor<3xcomplex<f32>>
  func.return %0 : tensor<3xcomplex<f32>>
}
// CHECK-LABEL: func.func @mul(%a: tensor<3x2xf32>, %b: tensor<3x2xf32>) -> tensor<3x2xf32> {
// CHECK-NEXT:    %0 = hlo.slice %a [0:3, 0:1] : (tensor<3x2xf32>) -> tensor<3x1xf32>
// CHECK-NEXT:    %1 = hlo.reshape %0 : (tensor<3x1xf32>) -> tensor<3xf32>
// CHECK-NEXT:    %2 = hlo.slice %a [0:3, 1:2] : (tensor<3x2xf32>) -> tensor<3x1xf32>
// CHECK-NEXT:    %3 = hlo.reshape %2 : (tensor<3x1xf32>) -> tensor<3xf32>
// CHECK:         %[[AR:.*]] = hlo.convert %1 : (tensor<3xf32>) -> tensor<3xf64>
// CHECK-NEXT:    %[[AI:.*]] = hlo.convert %3 : (tensor<3xf32>) -> tensor<3xf64>
// CHECK-NEXT:    %[[BR:.*]] = hlo.convert %{{.*}} : (tensor<3xf32>) -> tensor<3xf64>
// CHECK-NEXT:    %[[BI:.*]] = hlo.convert %{{.*}} : (tensor<3xf32>) -> tensor<3xf64>
// CHECK-NEXT:    %[[RR:.*]] = hlo.multiply %[[AR]], %[[BR]] : tensor<3xf64>
// CHECK-NEXT:    %[[II:.*]] = hlo.multiply %[[AI]], %[[BI]] : tensor<3xf64>
// CHECK-NEXT:    %[[RE:.*]] = hlo.subtract %[[RR]], %[[II]] : tensor<3xf64>
// CHECK-NEXT:    %[[RI:.*]] = hlo.multiply %[[AR]], %[[BI]] : tensor<3xf64>
// CHECK-NEXT:    %[[IR:.*]] = hlo.multiply %[[AI]], %[[BR]] : tensor<3xf64>
// CHECK-NEXT:    %[[IM:.*]] = hlo.add %[[RI]], %[[IR]] : tensor<3xf64>
// CHECK-NEXT:    %[[RE32:.*]] = hlo.convert %[[RE]] : (tensor<3xf64>) -> tensor<3xf32>
// CHECK-NEXT:    %[[IM32:.*]] = hlo.convert %[[IM]] : (tensor<3xf64>) -> tensor<3xf32>
// CHECK-NEXT:    %[[C0:.*]] = hlo.broadcast_in_dim %[[RE32]], dims = [0] : (tensor<3xf32>) -> tensor<3x2xf32>
// CHECK-NEXT:    %[[C1:.*]] = hlo.broadcast_in_dim %[[IM32]], dims = [0] : (tensor<3xf32>) -> tensor<3x2xf32>
// CHECK-NEXT:    %[[K:.*]] = hlo.iota dim = 1 : tensor<3x2xi32>
// CHECK-NEXT:    %[[Z:.*]] = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:    %[[ZS:.*]] = hlo.broadcast_in_dim %[[Z]], dims = [] : (tensor<i32>) -> tensor<3x2xi32>
// CHECK-NEXT:    %[[IS_RE:.*]] = hlo.compare EQ, %[[K]], %[[ZS]], SIGNED : (tensor<3x2xi32>, tensor<3x2xi32>) -> tensor<3x2xi1>
// CHECK-NEXT:    %[[P:.*]] = hlo.select %[[IS_RE]], %[[C0]], %[[C1]] : (tensor<3x2xi1>, tensor<3x2xf32>, tensor<3x2xf32>) -> tensor<3x2xf32>
// CHECK-NEXT:    func.return %[[P]] : tensor<3x2xf32>

// -----

// complex/real/imag only pair and pick parts; add, negate and data movement act per part.
func.func @parts(%x: tensor<2xf64>, %y: tensor<2xf64>) -> tensor<2xf64> {
  %z = hlo.complex %x, %y : tensor<2xcomplex<f64>>
  %s = hlo.add %z, %z : tensor<2xcomplex<f64>>
  %r = hlo.reverse %s, dims = [0] : tensor<2xcomplex<f64>>
  %n = hlo.negate %r : tensor<2xcomplex<f64>>
  %i = hlo.imag %n : (tensor<2xcomplex<f64>>) -> tensor<2xf64>
  func.return %i : tensor<2xf64>
}
// CHECK-LABEL: func.func @parts(%x: tensor<2xf64>, %y: tensor<2xf64>) -> tensor<2xf64> {
// CHECK-NEXT:    %0 = hlo.add %x, %x : tensor<2xf64>
// CHECK-NEXT:    %1 = hlo.add %y, %y : tensor<2xf64>
// CHECK-NEXT:    %2 = hlo.reverse %0, dims = [0] : tensor<2xf64>
// CHECK-NEXT:    %3 = hlo.reverse %1, dims = [0] : tensor<2xf64>
// CHECK-NEXT:    %4 = hlo.negate %2 : tensor<2xf64>
// CHECK-NEXT:    %i = hlo.negate %3 : tensor<2xf64>
// CHECK-NEXT:    func.return %i : tensor<2xf64>

// -----

// A complex reduce becomes a reduce over (re, im) pairs; its body's complex product splits too.
func.func @prod(%x: tensor<4xcomplex<f64>>) -> tensor<complex<f64>> {
  %one = hlo.constant dense<(1.0, 0.0)> : tensor<complex<f64>>
  %p = hlo.reduce(%x init: %one) applies hlo.multiply across dimensions = [0] : (tensor<4xcomplex<f64>>, tensor<complex<f64>>) -> tensor<complex<f64>>
  func.return %p : tensor<complex<f64>>
}
// CHECK-LABEL: func.func @prod(%x: tensor<4x2xf64>) -> tensor<2xf64> {
// CHECK:         %[[ONE_RE:.*]] = hlo.constant dense<1.000000e+00> : tensor<f64>
// CHECK-NEXT:    %[[ONE_IM:.*]] = hlo.constant dense<0.000000e+00> : tensor<f64>
// CHECK-NEXT:    %[[RE:.*]], %[[IM:.*]] = hlo.reduce(%{{.*}} init: %[[ONE_RE]]), (%{{.*}} init: %[[ONE_IM]]) across dimensions = [0] : (tensor<4xf64>, tensor<4xf64>, tensor<f64>, tensor<f64>) -> (tensor<f64>, tensor<f64>) reducer(%[[ACC_RE:.*]]: tensor<f64>, %[[X_RE:.*]]: tensor<f64>)(%[[ACC_IM:.*]]: tensor<f64>, %[[X_IM:.*]]: tensor<f64>) {
// CHECK-NEXT:      %[[P:.*]] = hlo.multiply %[[ACC_RE]], %[[X_RE]] : tensor<f64>
// CHECK-NEXT:      %[[Q:.*]] = hlo.multiply %[[ACC_IM]], %[[X_IM]] : tensor<f64>
// CHECK-NEXT:      %[[R:.*]] = hlo.subtract %[[P]], %[[Q]] : tensor<f64>
// CHECK-NEXT:      %[[S:.*]] = hlo.multiply %[[ACC_RE]], %[[X_IM]] : tensor<f64>
// CHECK-NEXT:      %[[T:.*]] = hlo.multiply %[[ACC_IM]], %[[X_RE]] : tensor<f64>
// CHECK-NEXT:      %[[U:.*]] = hlo.add %[[S]], %[[T]] : tensor<f64>
// CHECK-NEXT:      hlo.return %[[R]], %[[U]] : tensor<f64>, tensor<f64>
// CHECK-NEXT:    }
// CHECK-NEXT:    %{{.*}} = hlo.broadcast_in_dim %[[RE]], dims = [] : (tensor<f64>) -> tensor<2xf64>

// -----

// Real/imag of a float operand: the operand itself, and zeros.
func.func @of_float(%x: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
  %r = hlo.real %x : tensor<3xf32>
  %i = hlo.imag %x : tensor<3xf32>
  func.return %r, %i : tensor<3xf32>, tensor<3xf32>
}
// CHECK-LABEL: func.func @of_float(%x: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
// CHECK-NEXT:    %0 = hlo.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT:    %i = hlo.broadcast_in_dim %0, dims = [] : (tensor<f32>) -> tensor<3xf32>
// CHECK-NEXT:    func.return %x, %i : tensor<3xf32>, tensor<3xf32>

// -----

// With fusion (the default), a complex op is one loop nest reading the strided parts of the
// argument and writing the interleaved result.
// RUN: minixla-opt %s --split-input-file -p hlo-complex-to-real | filecheck %s --check-prefix=FUSED
func.func @neg(%a: tensor<8xcomplex<f32>>) -> tensor<8xcomplex<f32>> {
  %r = hlo.negate %a : tensor<8xcomplex<f32>>
  func.return %r : tensor<8xcomplex<f32>>
}
// FUSED-LABEL: func.func @neg(%a: tensor<8x2xf32>) -> tensor<8x2xf32> {
// FUSED-NEXT:    %0 = hlo.slice %a [0:8, 0:1]
// FUSED-NEXT:    %1 = hlo.slice %a [0:8, 1:2]
// FUSED-NEXT:    %2 = hlo.fusion kind = loop (%3 = %0, %4 = %1) : (tensor<8x1xf32>, tensor<8x1xf32>) -> tensor<8x2xf32> {
// FUSED:           hlo.negate
// FUSED:           hlo.negate
// FUSED:           hlo.select
// FUSED-NEXT:      hlo.return
// FUSED-NEXT:    }
// FUSED-NEXT:    func.return %2 : tensor<8x2xf32>
