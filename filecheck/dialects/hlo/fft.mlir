// RUN: minixla-opt %s --print-op-generic | minixla-opt | filecheck %s

func.func @fft(%c: tensor<3x8xcomplex<f32>>, %r: tensor<2x4x6xf64>, %h: tensor<4x4xcomplex<f64>>) {
  %a = hlo.fft %c, type = FFT, length = [8] : (tensor<3x8xcomplex<f32>>) -> tensor<3x8xcomplex<f32>>
  %b = hlo.fft %c, type = IFFT, length = [3, 8] {tag} : (tensor<3x8xcomplex<f32>>) -> tensor<3x8xcomplex<f32>>
  %d = hlo.fft %r, type = RFFT, length = [2, 4, 6] : (tensor<2x4x6xf64>) -> tensor<2x4x4xcomplex<f64>>
  %e = hlo.fft %h, type = IRFFT, length = [6] : (tensor<4x4xcomplex<f64>>) -> tensor<4x6xf64>
  %f = "hlo.fft"(%h) <{fft_type = #hlo<fft_type IRFFT>, fft_length = array<i64: 4, 7>}> : (tensor<4x4xcomplex<f64>>) -> tensor<4x7xf64>
  func.return
}
// CHECK-LABEL: func.func @fft(%c: tensor<3x8xcomplex<f32>>, %r: tensor<2x4x6xf64>, %h: tensor<4x4xcomplex<f64>>) {
// CHECK-NEXT:  %a = hlo.fft %c, type = FFT, length = [8] : (tensor<3x8xcomplex<f32>>) -> tensor<3x8xcomplex<f32>>
// CHECK-NEXT:  %b = hlo.fft %c, type = IFFT, length = [3, 8] {tag} : (tensor<3x8xcomplex<f32>>) -> tensor<3x8xcomplex<f32>>
// CHECK-NEXT:  %d = hlo.fft %r, type = RFFT, length = [2, 4, 6] : (tensor<2x4x6xf64>) -> tensor<2x4x4xcomplex<f64>>
// CHECK-NEXT:  %e = hlo.fft %h, type = IRFFT, length = [6] : (tensor<4x4xcomplex<f64>>) -> tensor<4x6xf64>
// CHECK-NEXT:  %f = hlo.fft %h, type = IRFFT, length = [4, 7] : (tensor<4x4xcomplex<f64>>) -> tensor<4x7xf64>
// CHECK-NEXT:  func.return
// CHECK-NEXT:  }
