// RUN: minixla-opt %s -p tf-legalize-to-hlo | filecheck %s

// tf.map_fn / tf.scan / tf.TensorArray read and write element i of a stacked buffer inside a traced
// tf.While with the tf2xla ops XlaDynamicSlice / XlaDynamicUpdateSlice (frontend/ops/p1_control_ops.py):
// the 1-D index vector is split into one scalar start per dimension of hlo.dynamic_slice /
// hlo.dynamic_update_slice; the slice sizes are a compile-time constant.

func.func @dyn_slice(%x: tensor<3x2xf32>, %i: tensor<2xi32>) -> tensor<1x2xf32> {
  %s = "tf.Const"() <{value = dense<[1, 2]> : tensor<2xi32>}> : () -> tensor<2xi32>
  %r = "tf.XlaDynamicSlice"(%x, %i, %s) : (tensor<3x2xf32>, tensor<2xi32>, tensor<2xi32>) -> tensor<1x2xf32>
  func.return %r : tensor<1x2xf32>
}
// CHECK-LABEL: func.func @dyn_slice
// CHECK-NEXT:    %[[S0:.*]] = hlo.slice %i [0:1] : (tensor<2xi32>) -> tensor<1xi32>
// CHECK-NEXT:    %[[I0:.*]] = hlo.reshape %[[S0]] : (tensor<1xi32>) -> tensor<i32>
// CHECK-NEXT:    %[[S1:.*]] = hlo.slice %i [1:2] : (tensor<2xi32>) -> tensor<1xi32>
// CHECK-NEXT:    %[[I1:.*]] = hlo.reshape %[[S1]] : (tensor<1xi32>) -> tensor<i32>
// CHECK-NEXT:    %[[R:.*]] = hlo.dynamic_slice %x, %[[I0]], %[[I1]], sizes = [1, 2] : (tensor<3x2xf32>, tensor<i32>, tensor<i32>) -> tensor<1x2xf32>
// CHECK-NEXT:    func.return %[[R]] : tensor<1x2xf32>

func.func @dyn_update(%x: tensor<3x2xf32>, %u: tensor<1x2xf32>, %i: tensor<2xi32>) -> tensor<3x2xf32> {
  %r = "tf.XlaDynamicUpdateSlice"(%x, %u, %i) : (tensor<3x2xf32>, tensor<1x2xf32>, tensor<2xi32>) -> tensor<3x2xf32>
  func.return %r : tensor<3x2xf32>
}
// CHECK-LABEL: func.func @dyn_update
// CHECK-NEXT:    %[[S0:.*]] = hlo.slice %i [0:1] : (tensor<2xi32>) -> tensor<1xi32>
// CHECK-NEXT:    %[[I0:.*]] = hlo.reshape %[[S0]] : (tensor<1xi32>) -> tensor<i32>
// CHECK-NEXT:    %[[S1:.*]] = hlo.slice %i [1:2] : (tensor<2xi32>) -> tensor<1xi32>
// CHECK-NEXT:    %[[I1:.*]] = hlo.reshape %[[S1]] : (tensor<1xi32>) -> tensor<i32>
// CHECK-NEXT:    %[[R:.*]] = hlo.dynamic_update_slice %x, %u, %[[I0]], %[[I1]] : (tensor<3x2xf32>, tensor<1x2xf32>, tensor<i32>, tensor<i32>) -> tensor<3x2xf32>
// CHECK-NEXT:    func.return %[[R]] : tensor<3x2xf32>

// tf.switch_case traces to TF's "tf.Case" naming one private function per branch: the pass inlines them
// as the regions of one hlo.case (an out-of-range index runs the last region) and drops the functions.
func.func @switch(%i: tensor<i32>, %x: tensor<3xf32>) -> tensor<3xf32> {
  %r = "tf.Case"(%i, %x) {branches = [@b0, @b1], is_stateless = true} : (tensor<i32>, tensor<3xf32>) -> tensor<3xf32>
  func.return %r : tensor<3xf32>
}
func.func private @b0(%x: tensor<3xf32>) -> tensor<3xf32> {
  %y = "tf.Neg"(%x) : (tensor<3xf32>) -> tensor<3xf32>
  func.return %y : tensor<3xf32>
}
func.func private @b1(%x: tensor<3xf32>) -> tensor<3xf32> {
  %y = "tf.Mul"(%x, %x) : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  func.return %y : tensor<3xf32>
}
// CHECK-LABEL: func.func @switch
// CHECK-NEXT:    %[[R:.*]] = "hlo.case"(%i) ({
// CHECK-NEXT:      %[[N:.*]] = hlo.negate %x : tensor<3xf32>
// CHECK-NEXT:      hlo.return %[[N]] : tensor<3xf32>
// CHECK-NEXT:    }, {
// CHECK-NEXT:      %[[M:.*]] = hlo.multiply %x, %x : tensor<3xf32>
// CHECK-NEXT:      hlo.return %[[M]] : tensor<3xf32>
// CHECK-NEXT:    }) : (tensor<i32>) -> tensor<3xf32>
// CHECK-NEXT:    func.return %[[R]] : tensor<3xf32>
// CHECK-NOT:   func.func private @b0
