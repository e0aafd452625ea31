// RUN: minixla-opt %s --split-input-file -p expand-math-polynomials | filecheck %s

// f32 exp: clamped to [-104, 88.8] with maxnum/minnum (NaN set aside by the last select), k from the
// 1.5*2^23 rounding trick, a polynomial in r = x - k*ln2, 2^k as two exponent-field floats. The
// constants come first in the function (shared by all its expansions).
// CHECK-LABEL: func.func @exp
// CHECK-NOT:   math.exp
// CHECK-DAG:   %[[MAGIC:.*]] = arith.constant 0x4B400000 : f32
// CHECK-DAG:   %[[LN2HI:.*]] = arith.constant -0.693359375 : f32
// CHECK-DAG:   %[[HI:.*]] = arith.constant 8.880000e+01 : f32
// CHECK-DAG:   %[[LO:.*]] = arith.constant -1.040000e+02 : f32
// CHECK:       %[[A:.*]] = arith.maxnumf %[[X:.*]], %[[LO]] : f32
// CHECK-NEXT:  %[[C:.*]] = arith.minnumf %[[A]], %[[HI]] : f32
// CHECK-NEXT:  %[[NAN:.*]] = arith.cmpf uno, %[[X]], %[[X]] : f32
// CHECK-NEXT:  %[[K0:.*]] = arith.mulf %[[C]], %{{.*}} : f32
// CHECK-NEXT:  %[[SHIFTED:.*]] = arith.addf %[[K0]], %[[MAGIC]] : f32
// CHECK-NEXT:  %[[K:.*]] = arith.subf %[[SHIFTED]], %[[MAGIC]] : f32
// CHECK-NEXT:  arith.mulf %[[K]], %[[LN2HI]] : f32
// CHECK:       arith.bitcast %[[SHIFTED]] : f32 to i32
// CHECK:       arith.shrsi
// CHECK:       arith.shli
// CHECK:       arith.bitcast %{{.*}} : i32 to f32
// CHECK:       arith.shli
// CHECK:       arith.bitcast %{{.*}} : i32 to f32
// CHECK:       %[[R:.*]] = arith.select %[[NAN]], %[[X]], %{{.*}} : f32
// CHECK-NEXT:  func.return %[[R]] : f32
func.func @exp(%x: f32) -> f32 {
  %e = math.exp %x : f32
  func.return %e : f32
}

// -----

// f32 tanh: a polynomial below |x| = 0.9 (or NaN: `ult`), 1 - 2/(exp(2|x|)+1) above, the sign of x
// put back by copysign (so tanh(-0) = -0).
// CHECK-LABEL: func.func @tanh
// CHECK-NOT:   math.tanh
// CHECK-DAG:   %[[CUT:.*]] = arith.constant 9.000000e-01 : f32
// CHECK-DAG:   arith.constant 1.000000e+01 : f32
// CHECK:       %[[A:.*]] = math.absf %[[X:.*]] : f32
// CHECK:       arith.divf
// CHECK:       %[[SMALL:.*]] = arith.cmpf ult, %[[A]], %[[CUT]] : f32
// CHECK-NEXT:  %[[S:.*]] = arith.select %[[SMALL]], %{{.*}}, %{{.*}} : f32
// CHECK-NEXT:  %[[R:.*]] = math.copysign %[[S]], %[[X]] : f32
// CHECK-NEXT:  func.return %[[R]] : f32
func.func @tanh(%x: f32) -> f32 {
  %t = math.tanh %x : f32
  func.return %t : f32
}

// -----

// f32 log: subnormals scaled by 2^23, exponent and mantissa split with integer ops, then
// +inf -> +inf, 0 -> -inf, x < 0 or NaN -> NaN.
// CHECK-LABEL: func.func @log
// CHECK-NOT:   math.log
// CHECK-DAG:   %[[QNAN:.*]] = arith.constant 0x7fc00000 : f32
// CHECK-DAG:   %[[NINF:.*]] = arith.constant 0xff800000 : f32
// CHECK-DAG:   %[[PINF:.*]] = arith.constant 0x7f800000 : f32
// CHECK-DAG:   %[[MIN:.*]] = arith.constant 1.17549435e-38 : f32
// CHECK-DAG:   arith.constant 0x4B000000 : f32
// CHECK:       %[[TINY:.*]] = arith.cmpf olt, %[[X:.*]], %[[MIN]] : f32
// CHECK:       arith.andi
// CHECK:       arith.ori
// CHECK:       %[[INF:.*]] = arith.cmpf oeq, %[[X]], %[[PINF]] : f32
// CHECK-NEXT:  arith.select %[[INF]], %[[X]], %{{.*}} : f32
// CHECK-NEXT:  %[[ZERO:.*]] = arith.cmpf oeq, %[[X]], %{{.*}} : f32
// CHECK-NEXT:  arith.select %[[ZERO]], %[[NINF]], %{{.*}} : f32
// CHECK-NEXT:  %[[NEG:.*]] = arith.cmpf ult, %[[X]], %{{.*}} : f32
// CHECK-NEXT:  %[[R:.*]] = arith.select %[[NEG]], %[[QNAN]], %{{.*}} : f32
// CHECK-NEXT:  func.return %[[R]] : f32
func.func @log(%x: f32) -> f32 {
  %l = math.log %x : f32
  func.return %l : f32
}

// -----

// Vectors of f32 expand the same way, with splat constants and i32 vectors.
// CHECK-LABEL: func.func @vector
// CHECK-NOT:   math.tanh
// CHECK-DAG:   arith.constant dense<1262485504> : vector<4xi32>
// CHECK:       math.absf %{{.*}} : vector<4xf32>
// CHECK:       arith.bitcast %{{.*}} : vector<4xi32> to vector<4xf32>
// CHECK:       arith.cmpf ult, %{{.*}}, %{{.*}} : vector<4xf32>
// CHECK:       math.copysign %{{.*}}, %{{.*}} : vector<4xf32>
func.func @vector(%x: vector<4xf32>) -> vector<4xf32> {
  %t = math.tanh %x : vector<4xf32>
  func.return %t : vector<4xf32>
}

// -----

// Other types and other math ops stay as they are (libm keeps them).
// CHECK-LABEL: func.func @kept
// CHECK-NEXT:  math.exp %{{.*}} : f64
// CHECK-NEXT:  math.tanh %{{.*}} : f16
// CHECK-NEXT:  math.log %{{.*}} : f64
// CHECK-NEXT:  math.sin %{{.*}} : f32
// CHECK-NEXT:  math.expm1 %{{.*}} : f64
// CHECK-NEXT:  math.log1p %{{.*}} : f64
func.func @kept(%d: f64, %h: f16, %x: f32) -> (f64, f16, f64, f32, f64, f64) {
  %e = math.exp %d : f64
  %t = math.tanh %h : f16
  %l = math.log %d : f64
  %s = math.sin %x : f32
  %m = math.expm1 %d : f64
  %p = math.log1p %d : f64
  func.return %e, %t, %l, %s, %m, %p : f64, f16, f64, f32, f64, f64
}

// -----

// f32 expm1: exp's reduction, then 2 * (s*expm1(r) + (s - 1/2)) with s = 2^(k-1); x itself below 2^-25
// (and for NaN: `ult`).
// CHECK-LABEL: func.func @expm1
// CHECK-NOT:   math.expm1
// CHECK-DAG:   %[[TINY:.*]] = arith.constant 2.98023224e-08 : f32
// CHECK-DAG:   %[[HALF:.*]] = arith.constant 5.000000e-01 : f32
// CHECK-DAG:   %[[LO:.*]] = arith.constant -8.700000e+01 : f32
// CHECK:       arith.maxnumf %[[X:.*]], %[[LO]] : f32
// CHECK:       %[[S:.*]] = arith.bitcast %{{.*}} : i32 to f32
// CHECK-NEXT:  arith.mulf %[[S]], %{{.*}} : f32
// CHECK-NEXT:  arith.subf %[[S]], %[[HALF]] : f32
// CHECK:       %[[A:.*]] = math.absf %[[X]] : f32
// CHECK-NEXT:  %[[SMALL:.*]] = arith.cmpf ult, %[[A]], %[[TINY]] : f32
// CHECK-NEXT:  %[[R:.*]] = arith.select %[[SMALL]], %[[X]], %{{.*}} : f32
// CHECK-NEXT:  func.return %[[R]] : f32
func.func @expm1(%x: f32) -> f32 {
  %m = math.expm1 %x : f32
  func.return %m : f32
}

// -----

// f32 log1p: log(1 + x) plus the rounding error of 1 + x divided by it; x where 1 + x == 1,
// -inf at -1, +inf at +inf.
// CHECK-LABEL: func.func @log1p
// CHECK-NOT:   math.log1p
// CHECK-DAG:   %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK:       %[[U:.*]] = arith.addf %[[X:.*]], %[[ONE]] : f32
// CHECK:       %[[UM1:.*]] = arith.subf %[[U]], %[[ONE]] : f32
// CHECK-NEXT:  %[[C:.*]] = arith.subf %[[X]], %[[UM1]] : f32
// CHECK-NEXT:  arith.divf %[[C]], %[[U]] : f32
// CHECK:       %[[EXACT:.*]] = arith.cmpf oeq, %[[U]], %[[ONE]] : f32
// CHECK-NEXT:  arith.select %[[EXACT]], %[[X]], %{{.*}} : f32
// CHECK:       %[[INF:.*]] = arith.cmpf oeq, %[[X]], %{{.*}} : f32
// CHECK-NEXT:  %[[R:.*]] = arith.select %[[INF]], %{{.*}}, %{{.*}} : f32
// CHECK-NEXT:  func.return %[[R]] : f32
func.func @log1p(%x: f32) -> f32 {
  %p = math.log1p %x : f32
  func.return %p : f32
}

// -----

// The expansions of one function share their constants, built first in its entry block (so they
// dominate every loop body of the function).
// CHECK-LABEL: func.func @shared
// CHECK:       arith.constant 0x4B400000 : f32
// CHECK-NOT:   arith.constant 0x4B400000 : f32
// CHECK:       scf.for
// CHECK-NOT:   arith.constant
// CHECK:       func.return
func.func @shared(%x: f32, %y: f32) -> (f32, f32) {
  %e = math.exp %x : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %t = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %y) -> (f32) {
    %n = math.tanh %acc : f32
    scf.yield %n : f32
  }
  func.return %e, %t : f32, f32
}
