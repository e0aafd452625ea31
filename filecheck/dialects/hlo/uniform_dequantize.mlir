// RUN: minixla-opt %s | filecheck %s

func.func @uniform_dequantize(%q: tensor<2x3x!quant.uniform<i8:f16:1, {0.5,1.0:-1,2.0:3}>>, %s: tensor<i8>) -> tensor<2x3xf16> {
  %a = hlo.uniform_dequantize %q : (tensor<2x3x!quant.uniform<i8:f16:1, {0.5,1.0:-1,2.0:3}>>) -> tensor<2x3xf16>
  %b = hlo.bitcast_convert %s : (tensor<i8>) -> tensor<!quant.uniform<i8:f32, 0.1:-30>>
  %c = hlo.uniform_dequantize %b : (tensor<!quant.uniform<i8:f32, 0.1:-30>>) -> tensor<f32>
  func.return %a : tensor<2x3xf16>
}
// CHECK-LABEL: func.func @uniform_dequantize(%q: tensor<2x3x!quant.uniform<i8:f16:1, {0.5,1.0:-1,2.0:3}>>, %s: tensor<i8>) -> tensor<2x3xf16> {
// CHECK-NEXT:   %a = hlo.uniform_dequantize %q : (tensor<2x3x!quant.uniform<i8:f16:1, {0.5,1.0:-1,2.0:3}>>) -> tensor<2x3xf16>
// CHECK-NEXT:   %b = hlo.bitcast_convert %s : (tensor<i8>) -> tensor<!quant.uniform<i8:f32, 0.1:-30>>
// CHECK-NEXT:   %c = hlo.uniform_dequantize %b : (tensor<!quant.uniform<i8:f32, 0.1:-30>>) -> tensor<f32>
// CHECK-NEXT:   func.return %a : tensor<2x3xf16>
// CHECK-NEXT: }
