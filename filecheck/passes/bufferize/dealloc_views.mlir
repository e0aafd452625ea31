// RUN: minixla-opt %s -p convert-hlo-to-linalg,bufferize | filecheck %s

// A buffer is freed after the last use of any view of it, even a view that
// no tensor value names: the dead pad below writes its operand through a
// subview of its own buffer after the fill, so the dealloc must follow that
// write (the fuzzer found a use-after-free here with bounds checks on).
// CHECK:      %[[P:.*]] = memref.alloc() : memref<6x9x3xf64>
// CHECK:      outs(%[[P]] : memref<6x9x3xf64>)
// CHECK:      %[[V:.*]] = memref.subview %[[P]]
// CHECK-NOT:  memref.dealloc %[[P]]
// CHECK:      outs(%[[V]] : memref<3x8x2xf64, strided<[54, 3, 1]>>)
// CHECK:      memref.dealloc %[[P]]
func.func @dead_pad(%x: tensor<3x8x2xf64>) -> tensor<3x8x2xf64> {
  %zero = hlo.constant dense<0.0> : tensor<f64>
  %p = hlo.pad %x, %zero, low = [0, 0, 0], high = [1, 1, 1], interior = [1, 0, 0] : (tensor<3x8x2xf64>, tensor<f64>) -> tensor<6x9x3xf64>
  %y = hlo.subtract %x, %x : tensor<3x8x2xf64>
  func.return %y : tensor<3x8x2xf64>
}
