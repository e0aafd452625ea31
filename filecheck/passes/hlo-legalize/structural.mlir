// RUN: minixla-opt %s -p hlo-legalize-structural,dce | filecheck %s
// RUN: not minixla-opt %S/Inputs/dynamic-errors.mlir --split-input-file -p hlo-legalize-structural 2>&1 | filecheck %s --check-prefix=ERR

// composite -> call of the decomposition (inline follows in hlo-to-cpu); get_tuple_element(tuple) folds
// CHECK-LABEL: func.func @composite_and_tuples
// CHECK-NEXT:    %c = func.call @impl(%x) : (tensor<3xf32>) -> tensor<3xf32>
// CHECK-NEXT:    func.return %c, %y : tensor<3xf32>, tensor<i32>

// map: the body's elementwise ops on whole tensors; constants and captured scalars broadcast
// CHECK-LABEL: func.func @map
// CHECK-NEXT:    %c = hlo.constant dense<2.000000e+00> : tensor<f32>
// CHECK-NEXT:    %0 = hlo.broadcast_in_dim %c, dims = [] : (tensor<f32>) -> tensor<2x3xf32>
// CHECK-NEXT:    %1 = hlo.multiply %x, %0 : tensor<2x3xf32>
// CHECK-NEXT:    %2 = hlo.broadcast_in_dim %s, dims = [] : (tensor<f32>) -> tensor<2x3xf32>
// CHECK-NEXT:    %3 = hlo.add %1, %2 : tensor<2x3xf32>
// CHECK-NEXT:    %{{.*}} = hlo.maximum %3, %y : tensor<2x3xf32>

// constant shape operands: the static twins
// CHECK-LABEL: func.func @dynamic
// CHECK-NEXT:    %d = hlo.constant dense<4> : tensor<i32>
// CHECK-NEXT:    %i = hlo.iota dim = 1 : tensor<3x4xi32>
// CHECK-NEXT:    %r = hlo.reshape %x : (tensor<5x4xi64>) -> tensor<20xi64>
// CHECK-NEXT:    %b = hlo.broadcast_in_dim %x, dims = [1, 2] : (tensor<5x4xi64>) -> tensor<2x5x4xi64>
// CHECK-NEXT:    %p = hlo.pad %x, %v, low = [1, -1], high = [1, -1], interior = [0, 1] : (tensor<5x4xi64>, tensor<i64>) -> tensor<7x5xi64>

// CHECK-LABEL: func.func @dynamic_gather_conv
// CHECK-NEXT:    %g = "hlo.gather"(%x, %idx) <{dimension_numbers = #hlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 2>}>
// CHECK-NEXT:    %l = hlo.reshape
// CHECK-NEXT:    %c = hlo.convolution(%l, %k) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {stride = [2], pad = {{\[\[}}1, 0]]}

// shape operands computed from constants and static dimension sizes are evaluated
// CHECK-LABEL: func.func @computed_shape
// CHECK-NEXT:    %r = hlo.reshape %x : (tensor<4x6xf32>) -> tensor<8x3xf32>
// CHECK-NEXT:    func.return %r

// ERR: dynamic-errors.mlir:2:8: error: 'hlo.dynamic_iota' op output_shape is not a constant, so the shape stays dynamic (hlo-legalize-structural: compiled backends need static shapes
// ERR: dynamic-errors.mlir:9:8: error: 'hlo.dynamic_reshape' op result type tensor<?xf32> has dynamic dimensions
// ERR: dynamic-errors.mlir:13:1: error: 'func.func' op tuple-typed function arguments or results cannot be compiled
// ERR: dynamic-errors.mlir:19:8: error: 'hlo.get_dimension_size' op dimension 0 of tensor<?xf32> is dynamic

func.func private @impl(%x: tensor<3xf32>) -> tensor<3xf32> {
  %m = hlo.multiply %x, %x : tensor<3xf32>
  func.return %m : tensor<3xf32>
}

func.func @composite_and_tuples(%x: tensor<3xf32>, %y: tensor<i32>) -> (tensor<3xf32>, tensor<i32>) {
  %c = hlo.composite "my.square" %x {decomposition = @impl} : (tensor<3xf32>) -> tensor<3xf32>
  %i = hlo.tuple %y : tuple<tensor<i32>>
  %t = hlo.tuple %c, %i : tuple<tensor<3xf32>, tuple<tensor<i32>>>
  %a = hlo.get_tuple_element %t[0] : (tuple<tensor<3xf32>, tuple<tensor<i32>>>) -> tensor<3xf32>
  %b = hlo.get_tuple_element %t[1] : (tuple<tensor<3xf32>, tuple<tensor<i32>>>) -> tuple<tensor<i32>>
  %e = hlo.get_tuple_element %b[0] : (tuple<tensor<i32>>) -> tensor<i32>
  func.return %a, %e : tensor<3xf32>, tensor<i32>
}

func.func @map(%x: tensor<2x3xf32>, %y: tensor<2x3xf32>, %s: tensor<f32>) -> tensor<2x3xf32> {
  %r = "hlo.map"(%x, %y) <{dimensions = array<i64: 0, 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %c = hlo.constant dense<2.0> : tensor<f32>
    %m = hlo.multiply %a, %c : tensor<f32>
    %n = hlo.add %m, %s : tensor<f32>
    %o = hlo.maximum %n, %b : tensor<f32>
    hlo.return %o : tensor<f32>
  }) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  func.return %r : tensor<2x3xf32>
}

func.func @dynamic(%x: tensor<5x4xi64>, %v: tensor<i64>) -> (tensor<i32>, tensor<3x4xi32>, tensor<20xi64>, tensor<2x5x4xi64>, tensor<7x5xi64>) {
  %d = hlo.get_dimension_size %x, dim = 1 : (tensor<5x4xi64>) -> tensor<i32>
  %s = hlo.constant dense<[3, 4]> : tensor<2xi64>
  %i = hlo.dynamic_iota %s, dim = 1 : (tensor<2xi64>) -> tensor<3x4xi32>
  %n = hlo.constant dense<20> : tensor<1xi64>
  %r = hlo.dynamic_reshape %x, %n : (tensor<5x4xi64>, tensor<1xi64>) -> tensor<20xi64>
  %bs = hlo.constant dense<[2, 5, 4]> : tensor<3xi64>
  %b = hlo.dynamic_broadcast_in_dim %x, %bs, dims = [1, 2] : (tensor<5x4xi64>, tensor<3xi64>) -> tensor<2x5x4xi64>
  %lo = hlo.constant dense<[1, -1]> : tensor<2xi64>
  %hi = hlo.constant dense<[1, -1]> : tensor<2xi64>
  %in = hlo.constant dense<[0, 1]> : tensor<2xi64>
  %p = hlo.dynamic_pad %x, %v, %lo, %hi, %in : (tensor<5x4xi64>, tensor<i64>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) -> tensor<7x5xi64>
  func.return %d, %i, %r, %b, %p : tensor<i32>, tensor<3x4xi32>, tensor<20xi64>, tensor<2x5x4xi64>, tensor<7x5xi64>
}

func.func @dynamic_gather_conv(%x: tensor<3x4xf32>, %idx: tensor<2x1xi32>, %k: tensor<2x4x1xf32>) -> (tensor<2x2xf32>, tensor<1x2x1xf32>) {
  %ss = hlo.constant dense<[1, 2]> : tensor<2xi64>
  %g = "hlo.dynamic_gather"(%x, %idx, %ss) <{dimension_numbers = #hlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>}> : (tensor<3x4xf32>, tensor<2x1xi32>, tensor<2xi64>) -> tensor<2x2xf32>
  %l = hlo.reshape %x : (tensor<3x4xf32>) -> tensor<1x3x4xf32>
  %p = hlo.constant dense<[[1, 0]]> : tensor<1x2xi64>
  %c = "hlo.dynamic_conv"(%l, %k, %p) <{window_strides = array<i64: 2>, dimension_numbers = #hlo.conv<[b, 0, f]x[0, i, o]->[b, 0, f]>, feature_group_count = 1 : i64, batch_group_count = 1 : i64}> : (tensor<1x3x4xf32>, tensor<2x4x1xf32>, tensor<1x2xi64>) -> tensor<1x2x1xf32>
  func.return %g, %c : tensor<2x2xf32>, tensor<1x2x1xf32>
}

func.func @computed_shape(%x: tensor<4x6xf32>) -> tensor<8x3xf32> {
  %d0 = hlo.get_dimension_size %x, dim = 0 : (tensor<4x6xf32>) -> tensor<i32>
  %two = hlo.constant dense<2> : tensor<i32>
  %a = hlo.multiply %d0, %two : tensor<i32>
  %b = hlo.constant dense<3> : tensor<i32>
  %ra = hlo.reshape %a : (tensor<i32>) -> tensor<1xi32>
  %rb = hlo.reshape %b : (tensor<i32>) -> tensor<1xi32>
  %s = hlo.concatenate %ra, %rb, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  %r = hlo.dynamic_reshape %x, %s : (tensor<4x6xf32>, tensor<2xi32>) -> tensor<8x3xf32>
  func.return %r : tensor<8x3xf32>
}
