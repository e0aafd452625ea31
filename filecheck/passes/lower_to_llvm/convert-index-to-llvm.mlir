// RUN: minixla-opt %s -p convert-index-to-llvm | filecheck %s

// Only arith ops that touch `index` are lowered (index -> i64); the rest
// waits for convert-arith-to-llvm.
// CHECK-LABEL: func.func @mixed
// CHECK:         %[[C:.*]] = llvm.mlir.constant(4) : i64
// CHECK:         %[[I:.*]] = builtin.unrealized_conversion_cast %i : index to i64
// CHECK:         %[[M:.*]] = llvm.mul %[[I]], %[[C]] : i64
// CHECK:         %[[T:.*]] = llvm.trunc %[[M]] : i64 to i32
// CHECK:         arith.addi %{{.*}}, %x : i32
// CHECK:         %[[X:.*]] = llvm.sext %x : i32 to i64
// CHECK:         llvm.icmp "slt" %[[X]], %[[C]] : i64
func.func @mixed(%i: index, %x: i32) -> (i32, i1) {
  %c4 = arith.constant 4 : index
  %0 = arith.muli %i, %c4 : index
  %1 = arith.index_cast %0 : index to i32
  %2 = arith.addi %1, %x : i32
  %3 = arith.index_cast %x : i32 to index
  %4 = arith.cmpi slt, %3, %c4 : index
  return %2, %4 : i32, i1
}
