// RUN: minixla-opt %s --split-input-file -p convert-linalg-to-blas | filecheck %s

// A zero fill followed by a matmul: one sgemm, beta = 0, the fill is gone.
// CHECK-LABEL: func.func @matmul
// CHECK-NOT:   linalg.
// CHECK-DAG:   %[[ROW:.*]] = arith.constant 101 : i32
// CHECK-DAG:   %[[NT:.*]] = arith.constant 111 : i32
// CHECK-DAG:   %[[M:.*]] = arith.constant 3 : index
// CHECK-DAG:   %[[N:.*]] = arith.constant 5 : index
// CHECK-DAG:   %[[K:.*]] = arith.constant 4 : index
// CHECK-DAG:   %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK-DAG:   %[[ZERO:[0-9]+]] = arith.constant 0.000000e+00 : f32
// CHECK:       func.call @minixla_library_sgemm(%[[ROW]], %[[NT]], %[[NT]], %[[M]], %[[N]], %[[K]], %[[ONE]], %{{.*}}, %[[K]], %{{.*}}, %[[N]], %[[ZERO]], %{{.*}}, %[[N]])
// CHECK:       func.func private @minixla_library_sgemm(i32, i32, i32, index, index, index, f32, index, index, index, index, f32, index, index)
func.func @matmul(%a: memref<3x4xf32>, %b: memref<4x5xf32>, %c: memref<3x5xf32>) {
  %z = arith.constant 0.000000e+00 : f32
  linalg.fill ins(%z : f32) outs(%c : memref<3x5xf32>)
  linalg.matmul ins(%a, %b : memref<3x4xf32>, memref<4x5xf32>) outs(%c : memref<3x5xf32>)
  func.return
}

// -----

// x^T @ y in f64 (contracting dim 0 of both): a is transposed; no fill -> beta = 1.
// CHECK-LABEL: func.func @transposed
// CHECK-DAG:   %[[T:.*]] = arith.constant 112 : i32
// CHECK-DAG:   %[[NT:.*]] = arith.constant 111 : i32
// CHECK-DAG:   %[[ONE:.*]] = arith.constant 1.000000e+00 : f64
// CHECK:       func.call @minixla_library_dgemm(%{{.*}}, %[[T]], %[[NT]], %{{.*}}, %{{.*}}, %{{.*}}, %[[ONE]], %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[ONE]], %{{.*}}, %{{.*}})
// CHECK:       func.func private @minixla_library_dgemm
func.func @transposed(%a: memref<4x3xf64>, %b: memref<4x5xf64>, %c: memref<3x5xf64>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d0)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %b : memref<4x3xf64>, memref<4x5xf64>) outs(%c : memref<3x5xf64>) {
  ^bb0(%x: f64, %y: f64, %acc: f64):
    %p = arith.mulf %x, %y : f64
    %s = arith.addf %acc, %p : f64
    linalg.yield %s : f64
  }
  func.return
}

// -----

// Batch matmul: one loop over the batch, addresses advance by the batch strides
// (bytes); constants are hoisted before the loop.
// CHECK-LABEL: func.func @batched
// CHECK:       %[[A:.*]] = "memref.extract_aligned_pointer_as_index"(%{{.*}}) : (memref<2x3x4xf32>) -> index
// CHECK:       %[[SA:.*]] = arith.constant 48 : index
// CHECK:       scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK:         %[[OA:.*]] = arith.muli %[[I]], %[[SA]] : index
// CHECK:         %[[PA:.*]] = arith.addi %[[A]], %[[OA]] : index
// CHECK:         func.call @minixla_library_sgemm(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[PA]],
func.func @batched(%a: memref<2x3x4xf32>, %b: memref<2x4x5xf32>, %c: memref<2x3x5xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%a, %b : memref<2x3x4xf32>, memref<2x4x5xf32>) outs(%c : memref<2x3x5xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  func.return
}

// -----

// A strided view: its static offset (elements) is added to the address (bytes).
// CHECK-LABEL: func.func @view_offset
// CHECK:       %[[OFF:.*]] = arith.constant 40 : index
// CHECK:       arith.addi %{{.*}}, %[[OFF]] : index
// CHECK:       func.call @minixla_library_sgemm
func.func @view_offset(%a: memref<2x4xf32, strided<[8, 1], offset: 10>>, %b: memref<4x5xf32>, %c: memref<2x5xf32>) {
  linalg.matmul ins(%a, %b : memref<2x4xf32, strided<[8, 1], offset: 10>>, memref<4x5xf32>) outs(%c : memref<2x5xf32>)
  func.return
}

// -----

// Not gemm-shaped: integers, a non-mac body, no unit stride, inside scf.parallel.
// CHECK-LABEL: func.func @left_alone
// CHECK-NOT:   minixla_
// CHECK:       linalg.matmul ins(%{{.*}} : memref<3x4xi32>
// CHECK:       linalg.generic
// CHECK:       arith.maximumf
// CHECK:       linalg.matmul ins(%{{.*}} : memref<3x4xf32, strided<[16, 2]>>
// CHECK:       scf.parallel
// CHECK:       linalg.matmul
// CHECK-NOT:   minixla_
func.func @left_alone(%ai: memref<3x4xi32>, %bi: memref<4x5xi32>, %ci: memref<3x5xi32>,
                      %a: memref<3x4xf32>, %b: memref<4x5xf32>, %c: memref<3x5xf32>,
                      %s: memref<3x4xf32, strided<[16, 2]>>) {
  linalg.matmul ins(%ai, %bi : memref<3x4xi32>, memref<4x5xi32>) outs(%ci : memref<3x5xi32>)
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %b : memref<3x4xf32>, memref<4x5xf32>) outs(%c : memref<3x5xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %m = arith.maximumf %acc, %p : f32
    linalg.yield %m : f32
  }
  linalg.matmul ins(%s, %b : memref<3x4xf32, strided<[16, 2]>>, memref<4x5xf32>) outs(%c : memref<3x5xf32>)
  %lo = arith.constant 0 : index
  %hi = arith.constant 2 : index
  %st = arith.constant 1 : index
  "scf.parallel"(%lo, %hi, %st) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
  ^bb0(%i: index):
    linalg.matmul ins(%a, %b : memref<3x4xf32>, memref<4x5xf32>) outs(%c : memref<3x5xf32>)
    scf.reduce
  }) : (index, index, index) -> ()
  func.return
}

// -----

// A zero-size contraction does nothing: c keeps its init.
// CHECK-LABEL: func.func @empty
// CHECK-NEXT:  func.return
func.func @empty(%a: memref<3x0xf32>, %b: memref<0x5xf32>, %c: memref<3x5xf32>) {
  linalg.matmul ins(%a, %b : memref<3x0xf32>, memref<0x5xf32>) outs(%c : memref<3x5xf32>)
  func.return
}

// -----

// The dispatcher (and with it the generated gemm) only for products of at least MIN_WORK = 2^28
// multiply-adds and both sides of at least MIN_DIM = 128: 1024 x 1024 x 256 is one, one k less is not,
// nor a product 127 wide.
// CHECK-LABEL: func.func @big_and_small
// CHECK:       func.call @minixla_sgemm(
// CHECK:       func.call @minixla_library_sgemm(
// CHECK:       func.call @minixla_library_sgemm(
// CHECK-DAG:   func.func private @minixla_sgemm(
// CHECK-DAG:   func.func private @minixla_library_sgemm(
func.func @big_and_small(%a: memref<1024x256xf32>, %b: memref<256x1024xf32>, %c: memref<1024x1024xf32>,
                         %a2: memref<1024x255xf32>, %b2: memref<255x1024xf32>,
                         %b3: memref<256x127xf32>, %c3: memref<1024x127xf32>) {
  linalg.matmul ins(%a, %b : memref<1024x256xf32>, memref<256x1024xf32>) outs(%c : memref<1024x1024xf32>)
  linalg.matmul ins(%a2, %b2 : memref<1024x255xf32>, memref<255x1024xf32>) outs(%c : memref<1024x1024xf32>)
  linalg.matmul ins(%a, %b3 : memref<1024x256xf32>, memref<256x127xf32>) outs(%c3 : memref<1024x127xf32>)
  func.return
}
