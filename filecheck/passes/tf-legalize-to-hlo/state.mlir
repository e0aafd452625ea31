// RUN: minixla-opt %s -p tf-legalize-to-hlo | filecheck %s

// The raw ops on state in their functional form (frontend/ops/raw_variable_ops.py,
// raw_container_ops.py): a resource op reads the variable's value and returns the new one.
func.func @apply_gd(%var: tensor<3xf32>, %alpha: tensor<f32>, %delta: tensor<3xf32>) -> tensor<3xf32> {
  %r = "tf.ResourceApplyGradientDescent"(%var, %alpha, %delta) {use_locking = false} : (tensor<3xf32>, tensor<f32>, tensor<3xf32>) -> tensor<3xf32>
  func.return %r : tensor<3xf32>
}
// CHECK-LABEL: func.func @apply_gd
// CHECK-NEXT:    %[[A:.*]] = hlo.broadcast_in_dim %alpha, dims = [] : (tensor<f32>) -> tensor<3xf32>
// CHECK-NEXT:    %[[M:.*]] = hlo.multiply %[[A]], %delta : tensor<3xf32>
// CHECK-NEXT:    %[[S:.*]] = hlo.subtract %var, %[[M]] : tensor<3xf32>
// CHECK-NEXT:    func.return %[[S]]

// ResourceScatterAdd: the indices get an index-vector dim, one adding scatter.
func.func @scatter_add(%var: tensor<5x2xf32>, %i: tensor<3xi32>, %u: tensor<3x2xf32>) -> tensor<5x2xf32> {
  %r = "tf.ResourceScatterAdd"(%var, %i, %u) : (tensor<5x2xf32>, tensor<3xi32>, tensor<3x2xf32>) -> tensor<5x2xf32>
  func.return %r : tensor<5x2xf32>
}
// CHECK-LABEL: func.func @scatter_add
// CHECK-NEXT:    %[[I:.*]] = hlo.reshape %i : (tensor<3xi32>) -> tensor<3x1xi32>
// CHECK-NEXT:    "hlo.scatter"(%var, %[[I]], %u)
// CHECK:         hlo.add

// A TensorArray write / TensorList read is dynamic_update_slice / dynamic_slice of the buffer at a
// run-time row index.
func.func @ta_write(%buf: tensor<4x3xf32>, %i: tensor<i32>, %v: tensor<3xf32>) -> tensor<4x3xf32> {
  %r = "tf.TensorArrayWriteV3"(%buf, %i, %v) : (tensor<4x3xf32>, tensor<i32>, tensor<3xf32>) -> tensor<4x3xf32>
  func.return %r : tensor<4x3xf32>
}
// CHECK-LABEL: func.func @ta_write
// CHECK-NEXT:    %[[V:.*]] = hlo.reshape %v : (tensor<3xf32>) -> tensor<1x3xf32>
// CHECK-NEXT:    %[[Z:.*]] = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:    %[[R:.*]] = hlo.dynamic_update_slice %buf, %[[V]], %i, %[[Z]] : (tensor<4x3xf32>, tensor<1x3xf32>, tensor<i32>, tensor<i32>) -> tensor<4x3xf32>
// CHECK-NEXT:    func.return %[[R]]

func.func @list_get(%buf: tensor<4x3xf32>, %i: tensor<i32>) -> tensor<3xf32> {
  %s = "tf.Const"() <{value = dense<[3]> : tensor<1xi32>}> : () -> tensor<1xi32>
  %r = "tf.TensorListGetItem"(%buf, %i, %s) {element_dtype = f32} : (tensor<4x3xf32>, tensor<i32>, tensor<1xi32>) -> tensor<3xf32>
  func.return %r : tensor<3xf32>
}
// CHECK-LABEL: func.func @list_get
// CHECK:         %[[D:.*]] = hlo.dynamic_slice %buf, %i, %{{.*}}, sizes = [1, 3] : (tensor<4x3xf32>, tensor<i32>, tensor<i32>) -> tensor<1x3xf32>
// CHECK-NEXT:    %[[R:.*]] = hlo.reshape %[[D]] : (tensor<1x3xf32>) -> tensor<3xf32>
// CHECK-NEXT:    func.return %[[R]]
