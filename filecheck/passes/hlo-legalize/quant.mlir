// RUN: minixla-opt %s -p hlo-legalize-quant | filecheck %s

// quantize: x / scale + zero_point, clamped to the storage range, rounded to even, converted;
// dequantize: (stored - zero_point) * scale; the bitcast to the storage type vanishes
// CHECK-LABEL: func.func @per_tensor(%x: tensor<4xf32>) -> (tensor<4xi8>, tensor<4xf32>) {
// CHECK-NEXT:    %0 = hlo.constant dense<5.000000e-01> : tensor<f32>
// CHECK-NEXT:    %1 = hlo.broadcast_in_dim %0, dims = [] : (tensor<f32>) -> tensor<4xf32>
// CHECK-NEXT:    %2 = hlo.divide %x, %1 : tensor<4xf32>
// CHECK-NEXT:    %3 = hlo.constant dense<-3.000000e+00> : tensor<f32>
// CHECK-NEXT:    %4 = hlo.broadcast_in_dim %3, dims = [] : (tensor<f32>) -> tensor<4xf32>
// CHECK-NEXT:    %5 = hlo.add %2, %4 : tensor<4xf32>
// CHECK-NEXT:    %6 = hlo.constant dense<-1.280000e+02> : tensor<f32>
// CHECK-NEXT:    %7 = hlo.constant dense<1.270000e+02> : tensor<f32>
// CHECK-NEXT:    %8 = hlo.clamp %6, %5, %7 : (tensor<f32>, tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
// CHECK-NEXT:    %9 = hlo.round_nearest_even %8 : tensor<4xf32>
// CHECK-NEXT:    %q = hlo.convert %9 : (tensor<4xf32>) -> tensor<4xi8>
// CHECK-NEXT:    %10 = hlo.convert %q : (tensor<4xi8>) -> tensor<4xf32>
// CHECK-NEXT:    %11 = hlo.constant dense<-3.000000e+00> : tensor<f32>
// CHECK-NEXT:    %12 = hlo.broadcast_in_dim %11, dims = [] : (tensor<f32>) -> tensor<4xf32>
// CHECK-NEXT:    %13 = hlo.subtract %10, %12 : tensor<4xf32>
// CHECK:         %d = hlo.multiply %13, %{{.*}} : tensor<4xf32>
// CHECK-NEXT:    func.return %q, %d : tensor<4xi8>, tensor<4xf32>

// per-axis: one scale and zero point per index of the quantized dimension, broadcast along it;
// the function signature takes the storage type
// CHECK-LABEL: func.func @per_axis(%q: tensor<2x3xui8>) -> tensor<2x3xf32> {
// CHECK-NEXT:    %0 = hlo.convert %q : (tensor<2x3xui8>) -> tensor<2x3xf32>
// CHECK-NEXT:    %1 = hlo.constant dense<[2.000000e+00, 1.000000e+00, 3.000000e+00]> : tensor<3xf32>
// CHECK-NEXT:    %2 = hlo.broadcast_in_dim %1, dims = [1] : (tensor<3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:    %3 = hlo.subtract %0, %2 : tensor<2x3xf32>
// CHECK-NEXT:    %4 = hlo.constant dense<[5.000000e-01, 1.000000e+00, 2.000000e+00]> : tensor<3xf32>
// CHECK-NEXT:    %5 = hlo.broadcast_in_dim %4, dims = [1] : (tensor<3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:    %d = hlo.multiply %3, %5 : tensor<2x3xf32>

func.func @per_tensor(%x: tensor<4xf32>) -> (tensor<4xi8>, tensor<4xf32>) {
  %q = hlo.uniform_quantize %x : (tensor<4xf32>) -> tensor<4x!quant.uniform<i8:f32, 0.5:-3>>
  %s = hlo.bitcast_convert %q : (tensor<4x!quant.uniform<i8:f32, 0.5:-3>>) -> tensor<4xi8>
  %d = hlo.uniform_dequantize %q : (tensor<4x!quant.uniform<i8:f32, 0.5:-3>>) -> tensor<4xf32>
  func.return %s, %d : tensor<4xi8>, tensor<4xf32>
}

func.func @per_axis(%q: tensor<2x3x!quant.uniform<ui8<1:200>:f32:1, {0.5:2,1.0:1,2.0:3}>>) -> tensor<2x3xf32> {
  %d = hlo.uniform_dequantize %q : (tensor<2x3x!quant.uniform<ui8<1:200>:f32:1, {0.5:2,1.0:1,2.0:3}>>) -> tensor<2x3xf32>
  func.return %d : tensor<2x3xf32>
}

// an elementwise op on quantized tensors: dequantize the operands, compute, quantize the result
// CHECK-LABEL: func.func @quantized_add(%a: tensor<2xi8>, %b: tensor<2xi8>) -> tensor<2xi8> {
// CHECK:         %[[A:.*]] = hlo.multiply %{{.*}} : tensor<2xf32>
// CHECK:         %[[B:.*]] = hlo.multiply %{{.*}} : tensor<2xf32>
// CHECK-NEXT:    %[[S:.*]] = hlo.add %[[A]], %[[B]] : tensor<2xf32>
// CHECK:         hlo.divide %[[S]], %{{.*}} : tensor<2xf32>
// CHECK:         %[[Q:.*]] = hlo.convert %{{.*}} : (tensor<2xf32>) -> tensor<2xi8>
// CHECK-NEXT:    func.return %[[Q]] : tensor<2xi8>
func.func @quantized_add(%a: tensor<2x!quant.uniform<i8:f32, 0.1:-30>>, %b: tensor<2x!quant.uniform<i8:f32, 0.5:-20>>) -> tensor<2x!quant.uniform<i8:f32, 0.5:-20>> {
  %s = hlo.add %a, %b : (tensor<2x!quant.uniform<i8:f32, 0.1:-30>>, tensor<2x!quant.uniform<i8:f32, 0.5:-20>>) -> tensor<2x!quant.uniform<i8:f32, 0.5:-20>>
  func.return %s : tensor<2x!quant.uniform<i8:f32, 0.5:-20>>
}
