// RUN: minixla-opt %s --split-input-file -p lower-linalg-to-loops | filecheck %s

// A fill right before a reduction into the same (fresh) buffer is not lowered: the accumulators start
// from the filled value instead of a load, and no loop stores it first.
// CHECK-LABEL: func.func @rowmax
// CHECK:       %[[INIT:.*]] = arith.constant 0xff800000 : f32
// CHECK-NOT:   memref.store
// CHECK:       "scf.parallel"
// CHECK-NOT:   memref.load %[[BUF:.*]][%{{.*}}] : memref<4xf32>
// CHECK:       scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[A:.*]] = %[[INIT]]) -> (f32) {
// CHECK:       arith.maximumf %[[A]]
// CHECK:       memref.store %{{.*}}, %{{.*}}[%{{.*}}] : memref<4xf32>
// CHECK-NOT:   linalg.
func.func @rowmax(%x: memref<4x8xf32>) -> memref<4xf32> {
  %init = arith.constant 0xff800000 : f32
  %buf = memref.alloc() : memref<4xf32>
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} outs(%buf : memref<4xf32>) {
  ^bb0(%o: f32):
    linalg.yield %init : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : memref<4x8xf32>) outs(%buf : memref<4xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %m = arith.maximumf %acc, %a : f32
    linalg.yield %m : f32
  }
  func.return %buf : memref<4xf32>
}

// -----

// The filled value may be a constant inside the fill's body (what hlo-to-linalg's fusions emit), and a
// zero-dimensional buffer is filled and reduced the same way.
// CHECK-LABEL: func.func @total
// CHECK-NOT:   memref.store
// CHECK:       %[[Z:.*]] = arith.constant 0.000000e+00 : f64
// CHECK:       scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%{{.*}} = %[[Z]]) -> (f64) {
// CHECK:       memref.store %{{.*}}, %{{.*}}[] : memref<f64>
func.func @total(%x: memref<8xf64>) -> memref<f64> {
  %buf = memref.alloc() : memref<f64>
  linalg.generic {indexing_maps = [affine_map<() -> ()>], iterator_types = []} outs(%buf : memref<f64>) {
  ^bb0(%o: f64):
    %z = arith.constant 0.000000e+00 : f64
    linalg.yield %z : f64
  }
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>], iterator_types = ["reduction"]} ins(%x : memref<8xf64>) outs(%buf : memref<f64>) {
  ^bb0(%a: f64, %acc: f64):
    %s = arith.addf %acc, %a : f64
    linalg.yield %s : f64
  }
  func.return %buf : memref<f64>
}

// -----

// Kept: before an elementwise op (not a reduction), into a buffer the caller passed (it may alias the
// input), and when the reduction reads a view of the filled buffer.
// CHECK-LABEL: func.func @kept
// CHECK:       memref.store %{{.*}}, %{{.*}}[%{{.*}}] : memref<4xf32>
// CHECK:       arith.addf
// CHECK:       memref.store %{{.*}}, %{{.*}}[%{{.*}}] : memref<4xf32>
// CHECK-LABEL: func.func @kept_arg
// CHECK:       memref.store %{{.*}}, %{{.*}}[%{{.*}}] : memref<4xf32>
// CHECK:       scf.for
// CHECK-LABEL: func.func @kept_view
// CHECK:       memref.store %{{.*}}, %{{.*}}[%{{.*}}] : memref<8xf32>
// CHECK:       scf.for
func.func @kept(%x: memref<4xf32>) -> memref<4xf32> {
  %c = arith.constant 1.0 : f32
  %buf = memref.alloc() : memref<4xf32>
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} outs(%buf : memref<4xf32>) {
  ^bb0(%o: f32):
    linalg.yield %c : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x : memref<4xf32>) outs(%buf : memref<4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.addf %o, %a : f32
    linalg.yield %s : f32
  }
  func.return %buf : memref<4xf32>
}
func.func @kept_arg(%x: memref<4x8xf32>, %buf: memref<4xf32>) {
  %c = arith.constant 0.0 : f32
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} outs(%buf : memref<4xf32>) {
  ^bb0(%o: f32):
    linalg.yield %c : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : memref<4x8xf32>) outs(%buf : memref<4xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %acc, %a : f32
    linalg.yield %s : f32
  }
  func.return
}
func.func @kept_view() -> memref<8xf32> {
  %c = arith.constant 2.0 : f32
  %buf = memref.alloc() : memref<8xf32>
  %v = memref.expand_shape %buf [[0, 1]] output_shape [2, 4] : memref<8xf32> into memref<2x4xf32>
  %w = memref.collapse_shape %v [[0, 1]] : memref<2x4xf32> into memref<8xf32>
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} outs(%buf : memref<8xf32>) {
  ^bb0(%o: f32):
    linalg.yield %c : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%w : memref<8xf32>) outs(%buf : memref<8xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %acc, %a : f32
    linalg.yield %s : f32
  }
  func.return %buf : memref<8xf32>
}

// -----

// A reduction with two outputs has a fill (and an allocation) for each before it: both fold.
// CHECK-LABEL: func.func @two_outputs
// CHECK-NOT:   memref.store
// CHECK:       "scf.parallel"
// CHECK:       scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%{{.*}} = %[[Z:.*]], %{{.*}} = %[[Z]]) -> (f32, f32) {
// CHECK-NOT:   "scf.parallel"
func.func @two_outputs(%x: memref<4x8xf32>) -> (memref<4xf32>, memref<4xf32>) {
  %z = arith.constant 0.000000e+00 : f32
  %s = memref.alloc() : memref<4xf32>
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} outs(%s : memref<4xf32>) {
  ^bb0(%o: f32):
    linalg.yield %z : f32
  }
  %q = memref.alloc() : memref<4xf32>
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} outs(%q : memref<4xf32>) {
  ^bb0(%o: f32):
    linalg.yield %z : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : memref<4x8xf32>) outs(%s, %q : memref<4xf32>, memref<4xf32>) {
  ^bb0(%a: f32, %as: f32, %aq: f32):
    %n = arith.addf %as, %a : f32
    %a2 = arith.mulf %a, %a : f32
    %m = arith.addf %aq, %a2 : f32
    linalg.yield %n, %m : f32, f32
  }
  func.return %s, %q : memref<4xf32>, memref<4xf32>
}
