// RUN: minixla-opt %s --split-input-file --verify-diagnostics | filecheck %s

%a = "test.op"() : () -> tensor<2xi32>
%0 = hlo.reduce_precision %a, format = e5m10 : tensor<2xi32>
// CHECK: error: 'hlo.reduce_precision' op operand must have a floating-point element type, got tensor<2xi32>

// -----
%a = "test.op"() : () -> tensor<2xf32>
%0 = "hlo.reduce_precision"(%a) <{exponent_bits = 0 : i32, mantissa_bits = 2 : i32}> : (tensor<2xf32>) -> tensor<2xf32>
// CHECK: error: 'hlo.reduce_precision' op exponent_bits must be >= 1, got 0

// -----
%a = "test.op"() : () -> tensor<2xf32>
%0 = hlo.reduce_precision %a, format = fp8 : tensor<2xf32>
// CHECK: error: expected a format like e5m10, got 'fp8'
