// RUN: minixla-opt %s | filecheck %s

func.func @uniform_quantize(%x: tensor<2xf32>) -> tensor<2x!quant.uniform<i8:f32:0, {0.1:-20,0.2:-30}>> {
  %a = hlo.uniform_quantize %x : (tensor<2xf32>) -> tensor<2x!quant.uniform<i8:f32:0, {0.1:-30,0.5:-20}>>
  %b = hlo.uniform_quantize %a : (tensor<2x!quant.uniform<i8:f32:0, {0.1:-30,0.5:-20}>>) -> tensor<2x!quant.uniform<i8:f32:0, {0.1:-20,0.2:-30}>>
  %c = "hlo.uniform_quantize"(%x) : (tensor<2xf32>) -> tensor<2x!quant.uniform<ui8<1:200>:f32, 2.5e-03:7>>
  %d = hlo.uniform_quantize %x : (tensor<2xf32>) -> tensor<2x!quant.uniform<i16:f32, 3.0>>
  func.return %b : tensor<2x!quant.uniform<i8:f32:0, {0.1:-20,0.2:-30}>>
}
// CHECK-LABEL: func.func @uniform_quantize(%x: tensor<2xf32>) -> tensor<2x!quant.uniform<i8:f32:0, {0.1:-20,0.2:-30}>> {
// CHECK-NEXT:   %a = hlo.uniform_quantize %x : (tensor<2xf32>) -> tensor<2x!quant.uniform<i8:f32:0, {0.1:-30,0.5:-20}>>
// CHECK-NEXT:   %b = hlo.uniform_quantize %a : (tensor<2x!quant.uniform<i8:f32:0, {0.1:-30,0.5:-20}>>) -> tensor<2x!quant.uniform<i8:f32:0, {0.1:-20,0.2:-30}>>
// CHECK-NEXT:   %c = hlo.uniform_quantize %x : (tensor<2xf32>) -> tensor<2x!quant.uniform<ui8<1:200>:f32, 0.0025:7>>
// CHECK-NEXT:   %d = hlo.uniform_quantize %x : (tensor<2xf32>) -> tensor<2x!quant.uniform<i16:f32, 3.0>>
// CHECK-NEXT:   func.return %b : tensor<2x!quant.uniform<i8:f32:0, {0.1:-20,0.2:-30}>>
// CHECK-NEXT: }
