// RUN: minixla-opt %s --split-input-file --verify-diagnostics | filecheck %s

// Complex operands where the spec forbids them, and the complex/real/imag type rules.
%a = "test.op"() : () -> tensor<2xcomplex<f32>>
%0 = hlo.floor %a : tensor<2xcomplex<f32>>
// CHECK: invalid_complex.mlir:5:6: error: 'hlo.floor' op operand must have a floating-point element type, got tensor<2xcomplex<f32>>

// -----
%a = "test.op"() : () -> tensor<2xcomplex<f64>>
%0 = hlo.and %a, %a : tensor<2xcomplex<f64>>
// CHECK: error: 'hlo.and' op operands must have a boolean or integer element type, got tensor<2xcomplex<f64>>

// -----
%a = "test.op"() : () -> tensor<2xcomplex<f32>>
%0 = "hlo.is_finite"(%a) : (tensor<2xcomplex<f32>>) -> tensor<2xi1>
// CHECK: error: 'hlo.is_finite' op operand must have a floating-point element type, got tensor<2xcomplex<f32>>

// -----
%a = "test.op"() : () -> tensor<complex<f64>>
%0 = "hlo.bitcast_convert"(%a) : (tensor<complex<f64>>) -> tensor<2xi64>
// CHECK: error: 'hlo.bitcast_convert' op operand tensor<complex<f64>> and result tensor<2xi64> must both be complex or both not (spec C2)

// -----
%a = "test.op"() : () -> tensor<2xcomplex<f32>>
%0 = "hlo.compare"(%a, %a) {comparison_direction = #hlo<comparison_direction EQ>, compare_type = #hlo<comparison_type TOTALORDER>} : (tensor<2xcomplex<f32>>, tensor<2xcomplex<f32>>) -> tensor<2xi1>
// CHECK: error: 'hlo.compare' op compare_type TOTALORDER is not valid for element type complex<f32> (expected FLOAT)

// -----
%a = "test.op"() : () -> tensor<2xf16>
%0 = "hlo.complex"(%a, %a) : (tensor<2xf16>, tensor<2xf16>) -> tensor<2xcomplex<f16>>
// CHECK: error: 'hlo.complex' op result has unsupported element type complex<f16>

// -----
%a = "test.op"() : () -> tensor<2xf32>
%b = "test.op"() : () -> tensor<2xf64>
%0 = "hlo.complex"(%a, %b) : (tensor<2xf32>, tensor<2xf64>) -> tensor<2xcomplex<f32>>
// CHECK: error: 'hlo.complex' op lhs type tensor<2xf32> and rhs type tensor<2xf64> must be equal

// -----
%a = "test.op"() : () -> tensor<2xf32>
%0 = "hlo.complex"(%a, %a) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xcomplex<f64>>
// CHECK: error: 'hlo.complex' op result type tensor<2xcomplex<f64>> must be tensor<2xcomplex<f32>>

// -----
%a = "test.op"() : () -> tensor<2xcomplex<f32>>
%0 = "hlo.real"(%a) : (tensor<2xcomplex<f32>>) -> tensor<2xf64>
// CHECK: error: 'hlo.real' op result type tensor<2xf64> must be tensor<2xf32>

// -----
%a = "test.op"() : () -> tensor<2xi32>
%0 = "hlo.imag"(%a) : (tensor<2xi32>) -> tensor<2xi32>
// CHECK: error: 'hlo.imag' op operand must have a floating-point or complex element type, got tensor<2xi32>
