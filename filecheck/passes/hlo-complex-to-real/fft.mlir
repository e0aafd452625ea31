// RUN: minixla-opt %s --split-input-file -p "hlo-complex-to-real{fuse=false}" | filecheck %s

// fft becomes its {interleaved} form: the CPU kernel reads and writes numpy's interleaved
// layout, which is a complex value's tensor<Sx2xF> at the function boundary, so an argument
// goes in and the result comes out as they are (the parts sliced out for other uses stay unused).
// CHECK-LABEL: func.func @fft(%x: tensor<4x8x2xf32>) -> tensor<4x8x2xf32> {
// CHECK:         %[[R:.*]] = hlo.fft %x, type = FFT, length = [8] {interleaved} : (tensor<4x8x2xf32>) -> tensor<4x8x2xf32>
// CHECK-NOT:     hlo.select
// CHECK:         func.return %[[R]] : tensor<4x8x2xf32>
func.func @fft(%x: tensor<4x8xcomplex<f32>>) -> tensor<4x8xcomplex<f32>> {
  %0 = hlo.fft %x, type = FFT, length = [8] : (tensor<4x8xcomplex<f32>>) -> tensor<4x8xcomplex<f32>>
  func.return %0 : tensor<4x8xcomplex<f32>>
}

// -----

// RFFT's real operand goes in unchanged; its interleaved result is split into parts for the
// multiply, whose parts are interleaved again (a select on the last index) for IRFFT.
// CHECK-LABEL: func.func @rfft_scale_irfft(%x: tensor<2x6xf64>) -> tensor<2x6xf64> {
// CHECK:         %[[S:.*]] = hlo.fft %x, type = RFFT, length = [2, 6] {interleaved} : (tensor<2x6xf64>) -> tensor<2x4x2xf64>
// CHECK:         %[[RE:.*]] = hlo.slice %[[S]] [0:2, 0:4, 0:1]
// CHECK:         %[[IM:.*]] = hlo.slice %[[S]] [0:2, 0:4, 1:2]
// CHECK:         %[[P:.*]] = hlo.select %{{.*}} : (tensor<2x4x2xi1>, tensor<2x4x2xf64>, tensor<2x4x2xf64>) -> tensor<2x4x2xf64>
// CHECK-NEXT:    %[[B:.*]] = hlo.fft %[[P]], type = IRFFT, length = [2, 6] {interleaved} : (tensor<2x4x2xf64>) -> tensor<2x6xf64>
// CHECK-NEXT:    func.return %[[B]] : tensor<2x6xf64>
func.func @rfft_scale_irfft(%x: tensor<2x6xf64>) -> tensor<2x6xf64> {
  %0 = hlo.fft %x, type = RFFT, length = [2, 6] : (tensor<2x6xf64>) -> tensor<2x4xcomplex<f64>>
  %1 = hlo.multiply %0, %0 : tensor<2x4xcomplex<f64>>
  %2 = hlo.fft %1, type = IRFFT, length = [2, 6] : (tensor<2x4xcomplex<f64>>) -> tensor<2x6xf64>
  func.return %2 : tensor<2x6xf64>
}
