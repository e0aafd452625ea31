// RUN: minixla-opt %s -p arith-emulate-narrow-floats | filecheck %s

// fp8 arithmetic runs in f32: each operand is looked up in a 256-entry f32 table
// (ml_dtypes' values), the result is rounded back with integer code (nearest even,
// then the format's overflow/NaN rules) and handed on as the format's byte.
func.func @mul(%a: f8E4M3FN, %b: f8E4M3FN) -> f8E4M3FN {
  %0 = arith.mulf %a, %b : f8E4M3FN
  func.return %0 : f8E4M3FN
}
// CHECK:       "memref.global"() <{sym_name = "__minixla_f8E4M3FN_to_f32", type = memref<256xf32>, initial_value = dense<
// CHECK-LABEL: func.func @mul
// CHECK:         %[[AB:.*]] = builtin.unrealized_conversion_cast %a : f8E4M3FN to i8
// CHECK-NEXT:    %[[AW:.*]] = arith.extui %[[AB]] : i8 to i32
// CHECK-NEXT:    %[[AI:.*]] = arith.index_cast %[[AW]] : i32 to index
// CHECK-NEXT:    %[[T:.*]] = memref.get_global @__minixla_f8E4M3FN_to_f32 : memref<256xf32>
// CHECK-NEXT:    %[[AF:.*]] = memref.load %[[T]][%[[AI]]] : memref<256xf32>
// CHECK:         %[[P:.*]] = arith.mulf %[[AF]], %{{.*}} : f32
// CHECK-NEXT:    %[[BITS:.*]] = arith.bitcast %[[P]] : f32 to i32
// CHECK:         arith.cmpi ugt, %{{.*}}, %{{.*}} : i32
// CHECK:         %[[CODE:.*]] = arith.trunci %{{.*}} : i32 to i8
// CHECK-NEXT:    %[[R:.*]] = builtin.unrealized_conversion_cast %[[CODE]] : i8 to f8E4M3FN
// CHECK-NEXT:    func.return %[[R]] : f8E4M3FN

// Conversions go through f32 (f64 -> fp8 as ml_dtypes rounds: to f32 first); comparisons
// widen both sides; constants become their byte.
func.func @convert(%a: f64, %b: f4E2M1FN, %c: f8E5M2) -> (f4E2M1FN, f16, i1, f8E5M2) {
  %0 = arith.truncf %a : f64 to f4E2M1FN
  %1 = arith.extf %b : f4E2M1FN to f16
  %2 = arith.cmpf olt, %c, %c : f8E5M2
  %3 = arith.constant 1.5 : f8E5M2
  func.return %0, %1, %2, %3 : f4E2M1FN, f16, i1, f8E5M2
}
// CHECK-LABEL: func.func @convert
// CHECK:         %[[N:.*]] = arith.truncf %a : f64 to f32
// CHECK-NEXT:    arith.bitcast %[[N]] : f32 to i32
// CHECK:         builtin.unrealized_conversion_cast %{{.*}} : i8 to f4E2M1FN
// CHECK:         memref.get_global @__minixla_f4E2M1FN_to_f32
// CHECK:         arith.truncf %{{.*}} : f32 to f16
// CHECK:         memref.get_global @__minixla_f8E5M2_to_f32
// CHECK:         arith.cmpf olt, %{{.*}}, %{{.*}} : f32
// CHECK:         %[[K:.*]] = arith.constant 62 : i8
// CHECK-NEXT:    builtin.unrealized_conversion_cast %[[K]] : i8 to f8E5M2
