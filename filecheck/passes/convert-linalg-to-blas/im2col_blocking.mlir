// RUN: minixla-opt %s -p convert-linalg-to-blas | filecheck %s

// A big patches buffer (im2col copy -> contraction) is built one block at a time
// (28 output rows of one image: 1x28x56x3x3x64, 3.4 MiB) into one reused buffer, each
// block followed by its gemm (m = 1568) on c's rows at a byte offset; the zero fill is
// dropped (beta = 0) and the full buffer is never allocated.
// CHECK-LABEL: func.func @conv
// CHECK-NOT:   memref<8x56x56x3x3x64xf32>
// CHECK:       %[[BUF:.*]] = memref.alloc() : memref<1x28x56x3x3x64xf32>
// CHECK:       scf.for %[[B:.*]] = %{{.*}} to %{{.*}} step
// CHECK:       scf.for %[[CHUNK:.*]] = %{{.*}} to %{{.*}} step
// CHECK:       %[[ROW:.*]] = arith.muli %[[CHUNK]], %{{.*}} : index
// CHECK:       "scf.parallel"
// CHECK:       memref.load %{{.*}}[%[[B]], %{{.*}}, %{{.*}}, %{{.*}}] : memref<8x58x58x64xf32>
// CHECK:       memref.store %{{.*}}, %[[BUF]]
// CHECK:       memref.subview %{{.*}}[0, 0, 0, 0] [1, 28, 56, 64] [1, 1, 1, 1]
// CHECK-DAG:   %[[M:.*]] = arith.constant 1568 : index
// CHECK-DAG:   %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK:       func.call @minixla_library_sgemm(%{{.*}}, %{{.*}}, %{{.*}}, %[[M]], %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[ZERO]], %{{.*}}, %{{.*}})
// CHECK-NOT:   linalg.
// CHECK:       memref.dealloc %[[BUF]]
func.func @conv(%0: memref<8x58x58x64xf32>, %1: memref<3x3x64x64xf32>, %2: memref<8x56x56x64xf32>) {
  %3 = memref.alloc() : memref<8x56x56x3x3x64xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, (d1 + d3), (d2 + d4), d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3, d4, d5)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%0 : memref<8x58x58x64xf32>) outs(%3 : memref<8x56x56x3x3x64xf32>) {
  ^bb0(%4: f32, %5: f32):
    linalg.yield %4 : f32
  }
  %6 = arith.constant 0.000000e+00 : f32
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%2 : memref<8x56x56x64xf32>) {
  ^bb0(%7: f32):
    linalg.yield %6 : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d4, d5, d6)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d4, d5, d6, d3)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%3, %1 : memref<8x56x56x3x3x64xf32>, memref<3x3x64x64xf32>) outs(%2 : memref<8x56x56x64xf32>) {
  ^bb0(%8: f32, %9: f32, %10: f32):
    %11 = arith.mulf %8, %9 : f32
    %12 = arith.addf %10, %11 : f32
    linalg.yield %12 : f32
  }
  memref.dealloc %3 : memref<8x56x56x3x3x64xf32>
  func.return
}
