// RUN: minixla-opt %s --split-input-file --verify-diagnostics | filecheck %s

%x = "test.op"() : () -> tensor<8xcomplex<f32>>
%0 = hlo.fft %x, type = FFT, length = [4] : (tensor<8xcomplex<f32>>) -> tensor<8xcomplex<f32>>
// CHECK: {{.*}}.mlir:4:6: error: 'hlo.fft' op FFT operand's trailing dimensions [8] must equal fft_length [4]

// -----
%x = "test.op"() : () -> tensor<8xf32>
%0 = hlo.fft %x, type = RFFT, length = [6] : (tensor<8xf32>) -> tensor<4xcomplex<f32>>
// CHECK: error: 'hlo.fft' op RFFT operand's trailing dimensions [8] must equal fft_length [6]

// -----
%x = "test.op"() : () -> tensor<8xf32>
%0 = hlo.fft %x, type = RFFT, length = [8] : (tensor<8xf32>) -> tensor<8xcomplex<f32>>
// CHECK: error: 'hlo.fft' op RFFT result shape [8] must be [5] (the last dimension n // 2 + 1 of the real side's 8)

// -----
%x = "test.op"() : () -> tensor<4xcomplex<f64>>
%0 = hlo.fft %x, type = IRFFT, length = [8] : (tensor<4xcomplex<f64>>) -> tensor<8xf64>
// CHECK: error: 'hlo.fft' op IRFFT operand shape [4] must be [5] (the last dimension n // 2 + 1 of the real side's 8)

// -----
%x = "test.op"() : () -> tensor<5xcomplex<f64>>
%0 = hlo.fft %x, type = IRFFT, length = [8] : (tensor<5xcomplex<f64>>) -> tensor<8xf32>
// CHECK: error: 'hlo.fft' op IRFFT result element type must be f64, got f32

// -----
%x = "test.op"() : () -> tensor<8xf32>
%0 = hlo.fft %x, type = FFT, length = [8] : (tensor<8xf32>) -> tensor<8xf32>
// CHECK: error: 'hlo.fft' op FFT needs a complex<f32|f64> operand, got tensor<8xf32>

// -----
%x = "test.op"() : () -> tensor<8xcomplex<f32>>
%0 = hlo.fft %x, type = RFFT, length = [8] : (tensor<8xcomplex<f32>>) -> tensor<5xcomplex<f32>>
// CHECK: error: 'hlo.fft' op RFFT needs an f32 or f64 operand, got tensor<8xcomplex<f32>>

// -----
%x = "test.op"() : () -> tensor<8xf32>
%0 = hlo.fft %x, type = RFFT, length = [8] : (tensor<8xf32>) -> tensor<5xcomplex<f64>>
// CHECK: error: 'hlo.fft' op RFFT result element type must be complex<f32>, got complex<f64>

// -----
%x = "test.op"() : () -> tensor<2x2x2x2xcomplex<f32>>
%0 = hlo.fft %x, type = FFT, length = [2, 2, 2, 2] : (tensor<2x2x2x2xcomplex<f32>>) -> tensor<2x2x2x2xcomplex<f32>>
// CHECK: error: 'hlo.fft' op fft_length must have 1 to 3 entries, got [2, 2, 2, 2]

// -----
%x = "test.op"() : () -> tensor<4xcomplex<f32>>
%0 = hlo.fft %x, type = FFT, length = [1, 4] : (tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>>
// CHECK: error: 'hlo.fft' op fft_length [1, 4] has more entries than the operand rank 1

// -----
%x = "test.op"() : () -> tensor<4xcomplex<f32>>
%0 = hlo.fft %x, type = IFFT, length = [4] : (tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f64>>
// CHECK: error: 'hlo.fft' op IFFT result type tensor<4xcomplex<f64>> must equal the operand type tensor<4xcomplex<f32>>

// -----
%x = "test.op"() : () -> tensor<4xcomplex<f32>>
%0 = hlo.fft %x, type = DCT, length = [4] : (tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>>
// CHECK: error: Expected `FFT`, `IFFT`, `RFFT`, or `IRFFT`
