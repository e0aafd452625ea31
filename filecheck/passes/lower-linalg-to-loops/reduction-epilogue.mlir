// RUN: minixla-opt %s --split-input-file -p lower-linalg-to-loops | filecheck %s

// A reduction's finalizer (hlo-to-linalg's fusions: the f64 accumulator rounded to f32, then the
// epilogue's elementwise ops) runs in the reduction's nest on the final accumulator: no f64 buffer, no
// second nest. A deallocation between them (of a buffer the finalizer does not read) stays after the nest,
// and the finalizer's own buffer is allocated before it.
// CHECK-LABEL: func.func @rowsum
// CHECK-NOT:   memref<4xf64>
// CHECK:       %[[OUT:.*]] = memref.alloc() : memref<4xf32>
// CHECK:       "scf.parallel"
// CHECK-NEXT:  ^{{.*}}(%[[I:.*]]: index):
// CHECK:       %[[S:.*]] = scf.for {{.*}} -> (f64) {
// CHECK:       }
// CHECK-NEXT:  %[[B:.*]] = memref.load %b[%[[I]]] : memref<4xf32>
// CHECK-NEXT:  %[[T:.*]] = arith.truncf %[[S]] : f64 to f32
// CHECK-NEXT:  %[[R:.*]] = arith.addf %[[T]], %[[B]] : f32
// CHECK-NEXT:  memref.store %[[R]], %[[OUT]][%[[I]]] : memref<4xf32>
// CHECK-NEXT:  scf.reduce
// CHECK:       memref.dealloc %x
// CHECK-NOT:   "scf.parallel"
// CHECK:       func.return %[[OUT]]
func.func @rowsum(%x: memref<4x8xf32>, %b: memref<4xf32>) -> memref<4xf32> {
  %acc = memref.alloc() : memref<4xf64>
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} outs(%acc : memref<4xf64>) {
  ^bb0(%o: f64):
    %z = arith.constant 0.000000e+00 : f64
    linalg.yield %z : f64
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : memref<4x8xf32>) outs(%acc : memref<4xf64>) {
  ^bb0(%a: f32, %s: f64):
    %w = arith.extf %a : f32 to f64
    %n = arith.addf %s, %w fastmath<reassoc> : f64
    linalg.yield %n : f64
  }
  memref.dealloc %x : memref<4x8xf32>
  %out = memref.alloc() : memref<4xf32>
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%acc, %b : memref<4xf64>, memref<4xf32>) outs(%out : memref<4xf32>) {
  ^bb0(%s: f64, %c: f32, %o: f32):
    %t = arith.truncf %s : f64 to f32
    %r = arith.addf %t, %c : f32
    linalg.yield %r : f32
  }
  memref.dealloc %acc : memref<4xf64>
  func.return %out : memref<4xf32>
}

// -----

// Kept apart: the accumulator is also returned (its buffer stays and is stored; the finalizer still
// runs in the nest), and a finalizer that reads the reduction's output at another element (a
// reversal) or writes a buffer the reduction reads keeps its own nest.
// CHECK-LABEL: func.func @returned
// CHECK:       "scf.parallel"
// CHECK:       scf.for
// CHECK:       memref.store %{{.*}}, %acc[%{{.*}}] : memref<4xf32>
// CHECK-NEXT:  arith.negf
// CHECK-NEXT:  memref.store
// CHECK-NEXT:  scf.reduce
// CHECK-NOT:   "scf.parallel"
// CHECK:       func.return
func.func @returned(%x: memref<4x8xf32>, %acc: memref<4xf32>, %out: memref<4xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : memref<4x8xf32>) outs(%acc : memref<4xf32>) {
  ^bb0(%a: f32, %s: f32):
    %n = arith.addf %s, %a : f32
    linalg.yield %n : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%acc : memref<4xf32>) outs(%out : memref<4xf32>) {
  ^bb0(%s: f32, %o: f32):
    %r = arith.negf %s : f32
    linalg.yield %r : f32
  }
  func.return
}

// CHECK-LABEL: func.func @reversed
// CHECK-COUNT-2: "scf.parallel"
func.func @reversed(%x: memref<4x8xf32>, %acc: memref<4xf32>, %out: memref<4xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : memref<4x8xf32>) outs(%acc : memref<4xf32>) {
  ^bb0(%a: f32, %s: f32):
    %n = arith.addf %s, %a : f32
    linalg.yield %n : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0) -> (3 - d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%acc : memref<4xf32>) outs(%out : memref<4xf32>) {
  ^bb0(%s: f32, %o: f32):
    %r = arith.negf %s : f32
    linalg.yield %r : f32
  }
  func.return
}

// CHECK-LABEL: func.func @overwrites_input
// CHECK-COUNT-2: "scf.parallel"
func.func @overwrites_input(%x: memref<4x4xf32>, %acc: memref<4xf32>) {
  %row = memref.subview %x[0, 0] [1, 4] [1, 1] : memref<4x4xf32> to memref<4xf32, strided<[1]>>
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : memref<4x4xf32>) outs(%acc : memref<4xf32>) {
  ^bb0(%a: f32, %s: f32):
    %n = arith.addf %s, %a : f32
    linalg.yield %n : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%acc : memref<4xf32>) outs(%row : memref<4xf32, strided<[1]>>) {
  ^bb0(%s: f32, %o: f32):
    linalg.yield %s : f32
  }
  func.return
}
