// RUN: minixla-opt %s --split-input-file --verify-diagnostics | filecheck %s

// check.expect_eq
%a = "test.op"() : () -> tensor<2xf32>
%b = "test.op"() : () -> tensor<2xf64>
"check.expect_eq"(%a, %b) : (tensor<2xf32>, tensor<2xf64>) -> ()
// CHECK: error: 'check.expect_eq' op operand types tensor<2xf32> and tensor<2xf64> must be equal

// -----
%a = "test.op"() : () -> tensor<?xf32>
check.expect_eq %a, %a : tensor<?xf32>
// CHECK: error: 'check.expect_eq' op lhs must have a static shape, got tensor<?xf32>

// -----
%a = "test.op"() : () -> tensor<2xf32>
check.expect_eq %a %a : tensor<2xf32>
// CHECK: error: Expected ','
// CHECK: note: while parsing 'check.expect_eq'

// -----
// check.expect_almost_eq
%a = "test.op"() : () -> tensor<2xf32>
%b = "test.op"() : () -> tensor<3xf32>
"check.expect_almost_eq"(%a, %b) : (tensor<2xf32>, tensor<3xf32>) -> ()
// CHECK: error: 'check.expect_almost_eq' op operand types tensor<2xf32> and tensor<3xf32> must be equal

// -----
%a = "test.op"() : () -> tensor<2xi32>
check.expect_almost_eq %a, %a : tensor<2xi32>
// CHECK: error: 'check.expect_almost_eq' op operands must have a floating-point or complex element type, got tensor<2xi32>

// -----
%a = "test.op"() : () -> tensor<2xf32>
check.expect_almost_eq %a, %a, tolerance = 1 : tensor<2xf32>
// CHECK: error: Expected float literal
// CHECK: note: while parsing 'check.expect_almost_eq'

// -----
%a = "test.op"() : () -> tensor<2xf32>
check.expect_almost_eq %a, %a, tol = 0.1 : tensor<2xf32>
// CHECK: error: Expected 'tolerance'
// CHECK: note: while parsing 'check.expect_almost_eq'

// -----
// check.expect_eq_const
%a = "test.op"() : () -> tensor<2xi32>
"check.expect_eq_const"(%a) <{value = dense<[1, 2]> : tensor<2xi64>}> : (tensor<2xi32>) -> ()
// CHECK: error: 'check.expect_eq_const' op constant type tensor<2xi64> must equal operand type tensor<2xi32>

// -----
%a = "test.op"() : () -> tensor<2xi32>
check.expect_eq_const %a, [1, 2]
// CHECK: error: expected a dense elements attribute, got [1 : i64, 2 : i64]
// CHECK: note: while parsing 'check.expect_eq_const'

// -----
%a = "test.op"() : () -> tensor<2xi32>
check.expect_eq_const %a, dense<[1, 2]> : tensor<2xi64>
// CHECK: error: operand is used with type tensor<2xi64>, but has been previously used or defined with type tensor<2xi32>
// CHECK: note: while parsing 'check.expect_eq_const'

// -----
// check.expect_almost_eq_const
%a = "test.op"() : () -> tensor<2xi32>
check.expect_almost_eq_const %a, dense<[1, 2]> : tensor<2xi32>
// CHECK: error: 'check.expect_almost_eq_const' op operand must have a floating-point or complex element type, got tensor<2xi32>

// -----
%a = "test.op"() : () -> tensor<2xf32>
"check.expect_almost_eq_const"(%a) <{value = dense<1.0> : tensor<3xf32>}> : (tensor<2xf32>) -> ()
// CHECK: error: 'check.expect_almost_eq_const' op constant type tensor<3xf32> must equal operand type tensor<2xf32>

// -----
// check.expect_close
%a = "test.op"() : () -> tensor<2xf32>
%b = "test.op"() : () -> tensor<2xf16>
check.expect_close %a, %b : tensor<2xf32>, tensor<2xf16>
// CHECK: error: 'check.expect_close' op operand types tensor<2xf32> and tensor<2xf16> must be equal

// -----
%a = "test.op"() : () -> tensor<2xui8>
check.expect_close %a, %a, max_ulp_difference = 1 : tensor<2xui8>, tensor<2xui8>
// CHECK: error: 'check.expect_close' op operands must have a floating-point or complex element type, got tensor<2xui8>

// -----
%a = "test.op"() : () -> tensor<2xf32>
check.expect_close %a, %a, max_ulp = 1 : tensor<2xf32>, tensor<2xf32>
// CHECK: error: Expected one of 'max_ulp_difference', 'min_ulp_difference'
// CHECK: note: while parsing 'check.expect_close'

// -----
%a = "test.op"() : () -> tensor<2xf32>
check.expect_close %a, %a : tensor<2xf32>
// CHECK: error: Expected ','
// CHECK: note: while parsing 'check.expect_close'

// -----
check.expect_bogus
// CHECK: error: custom op 'check.expect_bogus' is unknown (not registered)
