// RUN: minixla-opt %s -p convert-cf-to-llvm | filecheck %s

// Branches become llvm branches; block arguments get LLVM types (index -> i64).
// CHECK-LABEL: func.func @loop
// CHECK:         %[[LO:.*]] = builtin.unrealized_conversion_cast %lo : index to i64
// CHECK:         llvm.br ^[[HEAD:.*]](%[[LO]] : i64)
// CHECK:       ^[[HEAD]](%[[I:.*]]: i64):
// CHECK:         %[[IX:.*]] = builtin.unrealized_conversion_cast %[[I]] : i64 to index
// CHECK:         llvm.cond_br %{{.*}}, ^[[HEAD]](%{{.*}} : i64), ^[[EXIT:.*]]
// CHECK:       ^[[EXIT]]:
func.func @loop(%lo: index, %hi: index) {
  cf.br ^head(%lo : index)
^head(%i: index):
  %c = arith.cmpi slt, %i, %hi : index
  %n = arith.addi %i, %i : index
  cf.cond_br %c, ^head(%n : index), ^exit
^exit:
  return
}

// cf.switch becomes a chain of compares (SimplifyCFG rebuilds a switch).
// CHECK-LABEL: func.func @switch
// CHECK:         %[[C1:.*]] = llvm.mlir.constant(1 : i32) : i32
// CHECK:         %[[E1:.*]] = llvm.icmp "eq" %k, %[[C1]] : i32
// CHECK:         llvm.cond_br %[[E1]], ^[[ONE:.*]], ^[[NEXT:.*]]
// CHECK:       ^[[NEXT]]:
// CHECK:         %[[C7:.*]] = llvm.mlir.constant(7 : i32) : i32
// CHECK:         %[[E7:.*]] = llvm.icmp "eq" %k, %[[C7]] : i32
// CHECK:         llvm.cond_br %[[E7]], ^{{.*}}, ^{{.*}}(%x : f32)
func.func @switch(%k: i32, %x: f32) -> f32 {
  cf.switch %k : i32, [
    default: ^d(%x : f32),
    1: ^one,
    7: ^seven
  ]
^one:
  %a = arith.constant 1.0 : f32
  return %a : f32
^seven:
  %b = arith.constant 7.0 : f32
  return %b : f32
^d(%y: f32):
  return %y : f32
}
