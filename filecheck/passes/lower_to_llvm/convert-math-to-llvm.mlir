// RUN: minixla-opt %s -p convert-math-to-llvm | filecheck %s

// Intrinsics carry their type suffix, so f32 and f64 coexist in one module.
// CHECK-LABEL: func.func @intrinsics
// CHECK:         llvm.call_intrinsic "llvm.sqrt.f32"(%a) : (f32) -> f32
// CHECK:         llvm.call_intrinsic "llvm.sqrt.f64"(%b) : (f64) -> f64
// CHECK:         llvm.call_intrinsic "llvm.pow.f64"(%b, %b) : (f64, f64) -> f64
// CHECK:         %[[F:.*]] = llvm.mlir.constant(false) : i1
// CHECK:         llvm.call_intrinsic "llvm.ctlz.i32"(%i, %[[F]]) : (i32, i1) -> i32
func.func @intrinsics(%a: f32, %b: f64, %i: i32) -> (f32, f64, f64, i32) {
  %0 = math.sqrt %a : f32
  %1 = math.sqrt %b : f64
  %2 = math.powf %b, %b : f64
  %3 = math.ctlz %i : i32
  return %0, %1, %2, %3 : f32, f64, f64, i32
}

// No intrinsic: libm, declared once per symbol; f16 computes in f32.
// CHECK-LABEL: func.func @libm
// CHECK:         llvm.call @tanhf(%a) : (f32) -> f32
// CHECK:         llvm.call @atan2(%b, %b) : (f64, f64) -> f64
// CHECK:         llvm.call @tanhf(%a) : (f32) -> f32
// CHECK:         %[[W:.*]] = llvm.fpext %h : f16 to f32
// CHECK:         %[[R:.*]] = llvm.call @expm1f(%[[W]]) : (f32) -> f32
// CHECK:         llvm.fptrunc %[[R]] : f32 to f16
func.func @libm(%a: f32, %b: f64, %h: f16) -> (f32, f64, f32, f16) {
  %0 = math.tanh %a : f32
  %1 = math.atan2 %b, %b : f64
  %2 = math.tanh %a : f32
  %3 = math.expm1 %h : f16
  return %0, %1, %2, %3 : f32, f64, f32, f16
}
// CHECK-DAG:   llvm.func @tanhf(f32) -> f32
// CHECK-DAG:   llvm.func @atan2(f64, f64) -> f64
// CHECK-DAG:   llvm.func @expm1f(f32) -> f32
