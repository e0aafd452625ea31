// RUN: minixla-opt %s --split-input-file -p convert-hlo-to-linalg | filecheck %s --check-prefix=LINALG
// RUN: minixla-opt %s --split-input-file -p convert-hlo-to-linalg,bufferize | filecheck %s

// hlo.fft has no linalg form: it stays on tensors (stablehlo.fft becomes hlo.fft), and bufferize
// turns it into one FFT kernel call per axis on memref<1xT> views of the buffers
// (passes/bufferize/fft.py). A 2-d IRFFT inverts the leading axis into a complex scratch first,
// which is freed after the last call.
// LINALG-LABEL: func.func @irfft2
// LINALG:       hlo.fft %{{.*}}, type = IRFFT, length = [4, 5] : (tensor<4x3xcomplex<f64>>) -> tensor<4x5xf64>
// CHECK:        func.func @irfft2(%[[X:.*]]: memref<4x3xcomplex<f64>>, %[[OUT:.*]]: memref<4x5xf64>) {
// CHECK:        %[[T:.*]] = memref.alloc() : memref<4x3xcomplex<f64>>
// CHECK:        %[[XS:.*]] = memref.reinterpret_cast %[[X]] to offset: [0], sizes: [1], strides: [1] : memref<4x3xcomplex<f64>> to memref<1xcomplex<f64>>
// CHECK:        %[[TS:.*]] = memref.reinterpret_cast %[[T]] to {{.*}} to memref<1xcomplex<f64>>
// CHECK-DAG:    %[[ONE:.*]] = arith.constant 1 : index
// CHECK-DAG:    %[[FOUR:.*]] = arith.constant 4 : index
// CHECK-DAG:    %[[THREE:.*]] = arith.constant 3 : index
// CHECK-DAG:    %[[IFFT:.*]] = arith.constant 1 : i32
// CHECK:        func.call @minixla_fft_c128(%[[XS]], %[[TS]], %[[ONE]], %[[FOUR]], %[[THREE]], %[[IFFT]])
// CHECK:        %[[TS2:.*]] = memref.reinterpret_cast %[[T]]
// CHECK:        %[[OS:.*]] = memref.reinterpret_cast %[[OUT]] to {{.*}} : memref<4x5xf64> to memref<1xf64>
// CHECK-DAG:    %[[OUTER:.*]] = arith.constant 4 : index
// CHECK-DAG:    %[[N:.*]] = arith.constant 5 : index
// CHECK-DAG:    %[[IRFFT:.*]] = arith.constant 3 : i32
// CHECK:        func.call @minixla_irfft_c128(%[[TS2]], %[[OS]], %[[OUTER]], %[[N]], %{{.*}}, %[[IRFFT]]) : (memref<1xcomplex<f64>>, memref<1xf64>, index, index, index, i32) -> i32
// CHECK-NEXT:   memref.dealloc %[[T]] : memref<4x3xcomplex<f64>>
// CHECK-NEXT:   func.return
// CHECK-DAG:    func.func private @minixla_fft_c128(memref<1xcomplex<f64>>, memref<1xcomplex<f64>>, index, index, index, i32) -> i32
// CHECK-DAG:    func.func private @minixla_irfft_c128(memref<1xcomplex<f64>>, memref<1xf64>, index, index, index, i32) -> i32
func.func @irfft2(%x: tensor<4x3xcomplex<f64>>) -> tensor<4x5xf64> {
  %0 = hlo.fft %x, type = IRFFT, length = [4, 5] : (tensor<4x3xcomplex<f64>>) -> tensor<4x5xf64>
  func.return %0 : tensor<4x5xf64>
}

// -----

// A strided operand (a slice) is copied once into a dense buffer; RFFT writes the result, then
// FFT runs in place on it along the leading axis.
// LINALG-LABEL: func.func @rfft_of_slice
// LINALG:       hlo.fft %{{.*}}, type = RFFT, length = [4, 8] : (tensor<4x8xf32>) -> tensor<4x5xcomplex<f32>>
// CHECK:        func.func @rfft_of_slice(%{{.*}}: memref<6x8xf32>, %[[OUT:.*]]: memref<4x5xcomplex<f32>>) {
// CHECK:        %[[V:.*]] = memref.subview
// CHECK:        %[[D:.*]] = memref.alloc() : memref<4x8xf32>
// CHECK:        linalg.generic {{.*}} ins(%[[V]] : {{.*}}) outs(%[[D]] : memref<4x8xf32>)
// CHECK:        %[[DS:.*]] = memref.reinterpret_cast %[[D]] {{.*}} to memref<1xf32>
// CHECK:        func.call @minixla_rfft_c64(%[[DS]],
// CHECK-NEXT:   memref.dealloc %[[D]]
// CHECK:        %[[A:.*]] = memref.reinterpret_cast %[[OUT]]
// CHECK:        %[[B:.*]] = memref.reinterpret_cast %[[OUT]]
// CHECK:        func.call @minixla_fft_c64(%[[A]], %[[B]],
// CHECK-NEXT:   func.return
func.func @rfft_of_slice(%x: tensor<6x8xf32>) -> tensor<4x5xcomplex<f32>> {
  %s = hlo.slice %x [1:5, 0:8] : (tensor<6x8xf32>) -> tensor<4x8xf32>
  %0 = stablehlo.fft %s, type = RFFT, length = [4, 8] : (tensor<4x8xf32>) -> tensor<4x5xcomplex<f32>>
  func.return %0 : tensor<4x5xcomplex<f32>>
}
