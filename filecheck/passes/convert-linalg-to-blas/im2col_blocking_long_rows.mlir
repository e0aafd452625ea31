// RUN: minixla-opt %s -p convert-linalg-to-blas | filecheck %s

// Long patch rows (k = 3*3*256 = 2304): 2^20 elements would be 392-row blocks, each repacking
// the kernel in its gemm; blocks hold at least MIN_BLOCK_ROWS = 2048 rows up to 2^22 elements,
// here two whole images (2x28x28x3x3x256, 14 MiB, m = 1568), four blocks.
// CHECK-LABEL: func.func @conv
// CHECK-NOT:   memref<8x28x28x3x3x256xf32>
// CHECK:       %[[BUF:.*]] = memref.alloc() : memref<2x28x28x3x3x256xf32>
// CHECK:       scf.for %[[CHUNK:.*]] = %{{.*}} to %{{.*}} step
// CHECK:       "scf.parallel"
// CHECK:       memref.store %{{.*}}, %[[BUF]]
// CHECK-DAG:   %[[M:.*]] = arith.constant 1568 : index
// CHECK:       func.call @minixla_sgemm(%{{.*}}, %{{.*}}, %{{.*}}, %[[M]],
// CHECK-NOT:   linalg.
// CHECK:       memref.dealloc %[[BUF]]
func.func @conv(%0: memref<8x30x30x256xf32>, %1: memref<3x3x256x256xf32>, %2: memref<8x28x28x256xf32>) {
  %3 = memref.alloc() : memref<8x28x28x3x3x256xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, (d1 + d3), (d2 + d4), d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3, d4, d5)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%0 : memref<8x30x30x256xf32>) outs(%3 : memref<8x28x28x3x3x256xf32>) {
  ^bb0(%4: f32, %5: f32):
    linalg.yield %4 : f32
  }
  %6 = arith.constant 0.000000e+00 : f32
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%2 : memref<8x28x28x256xf32>) {
  ^bb0(%7: f32):
    linalg.yield %6 : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d4, d5, d6)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d4, d5, d6, d3)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%3, %1 : memref<8x28x28x3x3x256xf32>, memref<3x3x256x256xf32>) outs(%2 : memref<8x28x28x256xf32>) {
  ^bb0(%8: f32, %9: f32, %10: f32):
    %11 = arith.mulf %8, %9 : f32
    %12 = arith.addf %10, %11 : f32
    linalg.yield %12 : f32
  }
  memref.dealloc %3 : memref<8x28x28x3x3x256xf32>
  func.return
}
