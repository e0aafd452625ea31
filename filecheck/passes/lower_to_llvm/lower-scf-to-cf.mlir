// RUN: minixla-opt %s -p lower-scf-to-cf | filecheck %s

// scf.while: the "before" region becomes the loop header ending in cond_br,
// the "after" region the body branching back.
// CHECK-LABEL: func.func @while
// CHECK:         cf.br ^[[HEAD:.*]](%x : i32)
// CHECK:       ^[[HEAD]](%[[V:.*]]: i32):
// CHECK:         %[[C:.*]] = arith.cmpi slt, %[[V]], %n : i32
// CHECK:         cf.cond_br %[[C]], ^[[BODY:.*]](%[[V]] : i32), ^[[EXIT:.*]](%[[V]] : i32)
// CHECK:       ^[[BODY]](%[[W:.*]]: i32):
// CHECK:         %[[NEXT:.*]] = arith.addi %[[W]], %[[W]] : i32
// CHECK:         cf.br ^[[HEAD]](%[[NEXT]] : i32)
// CHECK:       ^[[EXIT]](%[[R:.*]]: i32):
// CHECK:         func.return %[[R]] : i32
// CHECK-NOT:     scf.
func.func @while(%x: i32, %n: i32) -> i32 {
  %r = scf.while (%v = %x) : (i32) -> i32 {
    %c = arith.cmpi slt, %v, %n : i32
    scf.condition(%c) %v : i32
  } do {
  ^bb0(%w: i32):
    %next = arith.addi %w, %w : i32
    scf.yield %next : i32
  }
  func.return %r : i32
}

// scf.parallel becomes a sequential loop nest, dimension 0 outermost; the
// reduction is carried through the loops and applied in the innermost body.
// CHECK-LABEL: func.func @parallel
// CHECK:         cf.br ^[[OUTER:.*]](%lo, %init : index, f32)
// CHECK:       ^[[OUTER]](%[[I:.*]]: index, %[[ACC0:.*]]: f32):
// CHECK:         arith.cmpi slt, %[[I]], %hi : index
// CHECK:         cf.br ^[[INNER:.*]](%lo, %[[ACC0]] : index, f32)
// CHECK:       ^[[INNER]](%[[J:.*]]: index, %[[ACC1:.*]]: f32):
// CHECK:         %[[X:.*]] = memref.load %m[%[[I]], %[[J]]] : memref<4x4xf32>
// CHECK:         %[[S:.*]] = arith.addf %[[ACC1]], %[[X]] : f32
// CHECK:         arith.addi %[[J]], %step : index
// CHECK-NOT:     scf.
func.func @parallel(%m: memref<4x4xf32>, %lo: index, %hi: index, %step: index, %init: f32) -> f32 {
  %s = "scf.parallel"(%lo, %lo, %hi, %hi, %step, %step, %init) <{operandSegmentSizes = array<i32: 2, 2, 2, 1>}> ({
  ^bb0(%i: index, %j: index):
    %x = memref.load %m[%i, %j] : memref<4x4xf32>
    "scf.reduce"(%x) ({
    ^bb0(%l: f32, %r: f32):
      %q = arith.addf %l, %r : f32
      "scf.reduce.return"(%q) : (f32) -> ()
    }) : (f32) -> ()
  }) : (index, index, index, index, index, index, f32) -> f32
  func.return %s : f32
}

// scf.for and scf.if still lower as in xDSL's pass.
// CHECK-LABEL: func.func @for_if
// CHECK:         cf.cond_br
// CHECK-NOT:     scf.
func.func @for_if(%lo: index, %hi: index, %c: i1) -> index {
  %r = scf.for %i = %lo to %hi step %hi iter_args(%a = %lo) -> (index) {
    %n = scf.if %c -> (index) {
      scf.yield %i : index
    } else {
      scf.yield %a : index
    }
    scf.yield %n : index
  }
  func.return %r : index
}
