// RUN: minixla-opt %s -p fast-reconcile-unrealized-casts | filecheck %s
// RUN: minixla-opt %s -p reconcile-unrealized-casts | filecheck %s

// Our sweep over the casts removes the same chains as xDSL's pass: a round trip
// i64 -> index -> i64 disappears (its user reads %x), chains through several
// casts too, and a cast nobody uses goes.
// CHECK-LABEL: func.func @round_trips
// CHECK-NOT:     unrealized_conversion_cast
// CHECK:         %[[S:.*]] = llvm.add %x, %x : i64
// CHECK:         %[[T:.*]] = llvm.mul %[[S]], %x : i64
// CHECK:         func.return %[[T]] : i64
func.func @round_trips(%x: i64) -> i64 {
  %0 = builtin.unrealized_conversion_cast %x : i64 to index
  %1 = builtin.unrealized_conversion_cast %0 : index to i64
  %2 = llvm.add %1, %1 : i64
  %3 = builtin.unrealized_conversion_cast %2 : i64 to index
  %4 = builtin.unrealized_conversion_cast %3 : index to i32
  %5 = builtin.unrealized_conversion_cast %4 : i32 to i64
  %6 = llvm.mul %5, %x : i64
  %7 = builtin.unrealized_conversion_cast %x : i64 to index
  func.return %6 : i64
}
