// RUN: minixla-opt %s --split-input-file --verify-diagnostics | filecheck %s

// quantized types
%a = "test.op"() : () -> tensor<2xf32>
%0 = hlo.uniform_quantize %a : (tensor<2xf32>) -> tensor<2x!quant.uniform<i8:f32, 0.0:3>>
// CHECK: invalid_structural.mlir:5:83: error: quantized scale must be positive and finite, got 0.0

// -----
%a = "test.op"() : () -> tensor<2xf32>
%0 = hlo.uniform_quantize %a : (tensor<2xf32>) -> tensor<2x!quant.uniform<i8:f32:0, {0.1:3}>>
// CHECK: error: 'hlo.uniform_quantize' op result: 1 scales for quantized dimension 0 of size 2

// -----
%a = "test.op"() : () -> tensor<2xf32>
%0 = hlo.uniform_quantize %a : (tensor<2xf32>) -> tensor<2xi8>
// CHECK: error: 'hlo.uniform_quantize' op result must be a tensor of a quantized element type, got tensor<2xi8>

// -----
%a = "test.op"() : () -> tensor<2xf16>
%0 = hlo.uniform_quantize %a : (tensor<2xf16>) -> tensor<2x!quant.uniform<i8:f32, 0.5>>
// CHECK: error: 'hlo.uniform_quantize' op operand element type f16 must be the result's expressed type f32

// -----
%a = "test.op"() : () -> tensor<2x!quant.uniform<i8:f32, 0.5:200>>
// CHECK: invalid_structural.mlir:24:66: error: zero point 200 is outside the storage range [-128, 127]

// -----
%a = "test.op"() : () -> tensor<2x!quant.uniform<i8:f32, 0.5>>
%0 = hlo.uniform_dequantize %a : (tensor<2x!quant.uniform<i8:f32, 0.5>>) -> tensor<2xf64>
// CHECK: error: 'hlo.uniform_dequantize' op result must be a tensor of the expressed type f32, got tensor<2xf64>

// -----
// tuples
%a = "test.op"() : () -> tensor<2xf32>
%0 = "hlo.tuple"(%a) : (tensor<2xf32>) -> tuple<tensor<3xf32>>
// CHECK: error: 'hlo.tuple' op result type tuple<tensor<3xf32>> must be tuple<tensor<2xf32>>

// -----
%t = "test.op"() : () -> tuple<tensor<2xf32>>
%0 = hlo.get_tuple_element %t[1] : (tuple<tensor<2xf32>>) -> tensor<2xf32>
// CHECK: error: 'hlo.get_tuple_element' op index 1 is out of range for tuple<tensor<2xf32>>

// -----
%t = "test.op"() : () -> tuple<tensor<2xf32>>
%0 = hlo.get_tuple_element %t[0] : (tuple<tensor<2xf32>>) -> tensor<2xf64>
// CHECK: error: 'hlo.get_tuple_element' op result type tensor<2xf64> must be element #0: tensor<2xf32>

// -----
// map
%a = "test.op"() : () -> tensor<2x3xf32>
%0 = "hlo.map"(%a) <{dimensions = array<i64: 1, 0>}> ({
^bb0(%x: tensor<f32>):
  hlo.return %x : tensor<f32>
}) : (tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK: error: 'hlo.map' op dimensions must be [0, ..., 1] (every dimension, in order), got [1, 0]

// -----
%a = "test.op"() : () -> tensor<2x3xf32>
%0 = "hlo.map"(%a) <{dimensions = array<i64: 0, 1>}> ({
^bb0(%x: tensor<f64>):
  hlo.return %x : tensor<f64>
}) : (tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK: error: 'hlo.map' op computation must take (tensor<f32>), got (tensor<f64>)

// -----
// composite
func.func private @impl(%x: tensor<i32>) -> tensor<i32> {
  func.return %x : tensor<i32>
}
func.func @f(%x: tensor<i64>) -> tensor<i64> {
  %0 = hlo.composite "my.op" %x {decomposition = @impl} : (tensor<i64>) -> tensor<i64>
  func.return %0 : tensor<i64>
}
// CHECK: error: 'hlo.composite' op decomposition @impl has type (tensor<i32>) -> tensor<i32>, but the composite is (tensor<i64>) -> (tensor<i64>)

// -----
// dynamic shapes
%x = "test.op"() : () -> tensor<2x?xf32>
%0 = hlo.get_dimension_size %x, dim = 2 : (tensor<2x?xf32>) -> tensor<i32>
// CHECK: error: 'hlo.get_dimension_size' op dimension 2 is out of range for operand tensor<2x?xf32>

// -----
%s = "test.op"() : () -> tensor<3xi64>
%0 = hlo.dynamic_iota %s, dim = 0 : (tensor<3xi64>) -> tensor<?x4xf32>
// CHECK: error: 'hlo.dynamic_iota' op output_shape must have 2 elements (one per dimension), got tensor<3xi64>

// -----
%x = "test.op"() : () -> tensor<3xf32>
%s = "test.op"() : () -> tensor<2xi64>
%0 = hlo.dynamic_broadcast_in_dim %x, %s, dims = [0] {known_expanding_dimensions = array<i64: 0>, known_nonexpanding_dimensions = array<i64: 0>} : (tensor<3xf32>, tensor<2xi64>) -> tensor<?x?xf32>
// CHECK: error: 'hlo.dynamic_broadcast_in_dim' op known_expanding_dimensions and known_nonexpanding_dimensions must be disjoint

// -----
%x = "test.op"() : () -> tensor<2x3xf32>
%s = "test.op"() : () -> tensor<1xi64>
%0 = hlo.dynamic_reshape %x, %s : (tensor<2x3xf32>, tensor<1xi64>) -> tensor<5xf32>
// CHECK: error: 'hlo.dynamic_reshape' op cannot reshape tensor<2x3xf32> (6 elements) to tensor<5xf32> (5 elements)

// -----
%l = "test.op"() : () -> tensor<1x4x1xf32>
%k = "test.op"() : () -> tensor<3x1x1xf32>
%p = "test.op"() : () -> tensor<2x2xi64>
%0 = "hlo.dynamic_conv"(%l, %k, %p) <{dimension_numbers = #hlo.conv<[b, 0, f]x[0, i, o]->[b, 0, f]>, feature_group_count = 1 : i64, batch_group_count = 1 : i64}> : (tensor<1x4x1xf32>, tensor<3x1x1xf32>, tensor<2x2xi64>) -> tensor<1x?x1xf32>
// CHECK: error: 'hlo.dynamic_conv' op padding must be a 1x2 integer tensor (low, high per spatial dimension), got tensor<2x2xi64>

// -----
%a = "test.op"() : () -> tensor<2x!quant.uniform<i8:f32, 0.5>>
%b = "test.op"() : () -> tensor<2xf32>
%0 = "hlo.add"(%a, %b) : (tensor<2x!quant.uniform<i8:f32, 0.5>>, tensor<2xf32>) -> tensor<2xf32>
// CHECK: error: 'hlo.add' op operands and result must all be quantized or none, got tensor<2x!quant.uniform<i8:f32, 0.5>>, tensor<2xf32>, tensor<2xf32>

// -----
%a = "test.op"() : () -> tensor<2x!quant.uniform<i8:f32, 0.5>>
%0 = "hlo.and"(%a, %a) : (tensor<2x!quant.uniform<i8:f32, 0.5>>, tensor<2x!quant.uniform<i8:f32, 0.5>>) -> tensor<2x!quant.uniform<i8:f32, 0.5>>
// CHECK: error: 'hlo.and' op operands must have a boolean or integer element type, got tensor<2x!quant.uniform<i8:f32, 0.5>>
