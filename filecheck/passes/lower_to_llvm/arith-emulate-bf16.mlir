// RUN: minixla-opt %s -p arith-emulate-bf16 | filecheck %s

// bf16 arithmetic runs in f32; operands widen by bit shifting, the result
// rounds to nearest-even in integer code (LLVM's own bfloat code flushes subnormals).
func.func @mul(%a: bf16, %b: bf16) -> bf16 {
  %0 = arith.mulf %a, %b : bf16
  func.return %0 : bf16
}
// CHECK-LABEL: func.func @mul
// CHECK:         %[[AI:.*]] = arith.bitcast %a : bf16 to i16
// CHECK-NEXT:    %[[AW:.*]] = arith.extui %[[AI]] : i16 to i32
// CHECK-NEXT:    %[[S:.*]] = arith.constant 16 : i32
// CHECK-NEXT:    %[[AH:.*]] = arith.shli %[[AW]], %[[S]] : i32
// CHECK-NEXT:    %[[AF:.*]] = arith.bitcast %[[AH]] : i32 to f32
// CHECK:         %[[P:.*]] = arith.mulf %[[AF]], %{{.*}} : f32
// CHECK-NEXT:    %[[BITS:.*]] = arith.bitcast %[[P]] : f32 to i32
// CHECK:         arith.constant 32767 : i32
// CHECK:         %[[NAN:.*]] = arith.cmpf uno, %[[P]], %[[P]] : f32
// CHECK-NEXT:    %[[SEL:.*]] = arith.select %[[NAN]], %{{.*}}, %{{.*}} : i32
// CHECK-NEXT:    %[[T:.*]] = arith.trunci %[[SEL]] : i32 to i16
// CHECK-NEXT:    %[[R:.*]] = arith.bitcast %[[T]] : i16 to bf16
// CHECK-NEXT:    func.return %[[R]] : bf16

// Comparisons and extensions are exact in f32; other types are left alone.
func.func @cmp_ext(%a: bf16, %b: bf16, %c: f16) -> (i1, f64, f32) {
  %0 = arith.cmpf olt, %a, %b : bf16
  %1 = arith.extf %a : bf16 to f64
  %2 = arith.extf %c : f16 to f32
  func.return %0, %1, %2 : i1, f64, f32
}
// CHECK-LABEL: func.func @cmp_ext
// CHECK:         arith.cmpf olt, %{{.*}}, %{{.*}} : f32
// CHECK:         %[[W:.*]] = arith.bitcast %{{.*}} : i32 to f32
// CHECK-NEXT:    %{{.*}} = arith.extf %[[W]] : f32 to f64
// CHECK:         arith.extf %c : f16 to f32
