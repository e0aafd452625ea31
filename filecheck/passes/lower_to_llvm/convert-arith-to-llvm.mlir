// RUN: minixla-opt %s -p convert-arith-to-llvm | filecheck %s

// Integer division never traps: a select feeds sdiv a safe divisor; x/0 = -1.
// CHECK-LABEL: func.func @divsi
// CHECK:         %[[ZERO:.*]] = llvm.icmp "eq" %b, %{{.*}} : i32
// CHECK:         %[[BAD:.*]] = llvm.or %[[ZERO]], %{{.*}} : i1
// CHECK:         %[[SAFE:.*]] = llvm.select %[[BAD]], %{{.*}}, %b : i1, i32
// CHECK:         %[[Q:.*]] = llvm.sdiv %a, %[[SAFE]] : i32
// CHECK:         llvm.select %[[ZERO]], %{{.*}}, %[[Q]] : i1, i32
func.func @divsi(%a: i32, %b: i32) -> i32 {
  %0 = arith.divsi %a, %b : i32
  return %0 : i32
}

// Shifts by >= the bit width give 0; arithmetic right shifts fill with the sign.
// CHECK-LABEL: func.func @shifts
// CHECK:         %[[OOB:.*]] = llvm.icmp "uge" %n, %{{.*}} : i8
// CHECK:         %[[SHL:.*]] = llvm.shl %x, %n : i8
// CHECK:         llvm.select %[[OOB]], %{{.*}}, %[[SHL]] : i1, i8
// CHECK:         %[[AMT:.*]] = llvm.select %{{.*}}, %{{.*}}, %n : i1, i8
// CHECK:         llvm.ashr %x, %[[AMT]] : i8
func.func @shifts(%x: i8, %n: i8) -> (i8, i8) {
  %0 = arith.shli %x, %n : i8
  %1 = arith.shrsi %x, %n : i8
  return %0, %1 : i8, i8
}

// float -> int saturates (NaN -> 0); uitofp below 64 bits zero-extends first.
// CHECK-LABEL: func.func @convert
// CHECK:         llvm.call_intrinsic "llvm.fptosi.sat.i32.f32"(%f) : (f32) -> i32
// CHECK:         llvm.call_intrinsic "llvm.fptoui.sat.i8.f64"(%d) : (f64) -> i8
// CHECK:         %[[W:.*]] = llvm.zext %u : i32 to i64
// CHECK:         llvm.sitofp %[[W]] : i64 to f32
func.func @convert(%f: f32, %d: f64, %u: i32) -> (i32, i8, f32) {
  %0 = arith.fptosi %f : f32 to i32
  %1 = arith.fptoui %d : f64 to i8
  %2 = arith.uitofp %u : i32 to f32
  return %0, %1, %2 : i32, i8, f32
}

// Fast-math flags are copied from the op, never invented; NaN-aware min/max
// use the type-mangled intrinsics.
// CHECK-LABEL: func.func @floats
// CHECK:         llvm.fadd %a, %b : f32
// CHECK:         llvm.fmul %a, %b {fastmathFlags = #llvm.fastmath<reassoc,contract>} : f32
// CHECK:         llvm.call_intrinsic "llvm.maximum.f32"(%a, %b) : (f32, f32) -> f32
// CHECK:         llvm.fcmp "uno" %a, %b : f32
func.func @floats(%a: f32, %b: f32) -> (f32, f32, f32, i1) {
  %0 = arith.addf %a, %b : f32
  %1 = arith.mulf %a, %b fastmath<reassoc,contract> : f32
  %2 = arith.maximumf %a, %b : f32
  %3 = arith.cmpf uno, %a, %b : f32
  return %0, %1, %2, %3 : f32, f32, f32, i1
}

// index becomes i64 (through casts that reconcile-unrealized-casts removes).
// CHECK-LABEL: func.func @index
// CHECK:         %[[I:.*]] = builtin.unrealized_conversion_cast %i : index to i64
// CHECK:         %[[S:.*]] = llvm.add %[[I]], %[[I]] : i64
// CHECK:         builtin.unrealized_conversion_cast %[[S]] : i64 to index
func.func @index(%i: index) -> index {
  %0 = arith.addi %i, %i : index
  return %0 : index
}
