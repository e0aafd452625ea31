// RUN: minixla-opt %s --split-input-file --verify-diagnostics | filecheck %s

// Shared operand checks (dialects/hlo_ops/base.py: tensor()).
%a = "test.op"() : () -> i32
%0 = "hlo.add"(%a, %a) : (i32, i32) -> i32
// CHECK: error: 'hlo.add' op operand 'lhs' at position 0 does not verify:

// -----
%a = "test.op"() : () -> tensor<?xi32>
%0 = "hlo.add"(%a, %a) : (tensor<?xi32>, tensor<?xi32>) -> tensor<?xi32>
// CHECK: error: 'hlo.add' op lhs must have a static shape, got tensor<?xi32>

// -----
%a = "test.op"() : () -> tensor<4xi3>
%0 = hlo.add %a, %a : tensor<4xi3>
// CHECK: error: 'hlo.add' op lhs has unsupported element type i3 (supported: i1, i2, i4, i8..i64, {{.*}})

// -----
%a = "test.op"() : () -> tensor<2xf80>
%0 = hlo.negate %a : tensor<2xf80>
// CHECK: error: 'hlo.negate' op operand has unsupported element type f80 (supported: i1, i2, i4, i8..i64, {{.*}})

// -----
%a = "test.op"() : () -> tensor<2xcomplex<f16>>
%0 = hlo.negate %a : tensor<2xcomplex<f16>>
// CHECK: error: 'hlo.negate' op operand has unsupported element type complex<f16> (supported: i1, i2, i4, i8..i64, {{.*}})

// -----
%a = "test.op"() : () -> tensor<2xindex>
%0 = hlo.multiply %a, %a : tensor<2xindex>
// CHECK: error: 'hlo.multiply' op lhs has unsupported element type index (supported: i1, i2, i4, i8..i64, {{.*}})

// -----
%a = "test.op"() : () -> tensor<4xf32>
%0 = "hlo.add"(%a, %a) : (tensor<4xf32>, tensor<4xf32>) -> tensor<?xf32>
// CHECK: error: 'hlo.add' op result must have a static shape, got tensor<?xf32>

// -----
// Element-type classes of the unary ops.
%a = "test.op"() : () -> tensor<4xui8>
%0 = hlo.abs %a : tensor<4xui8>
// CHECK: error: 'hlo.abs' op operand must have a signed integer, floating-point or complex element type, got tensor<4xui8>

// -----
%a = "test.op"() : () -> tensor<4xi1>
%0 = hlo.negate %a : tensor<4xi1>
// CHECK: error: 'hlo.negate' op operand must have a numeric (non-boolean) element type, got tensor<4xi1>

// -----
%a = "test.op"() : () -> tensor<4xi32>
%0 = hlo.exponential %a : tensor<4xi32>
// CHECK: error: 'hlo.exponential' op operand must have a floating-point or complex element type, got tensor<4xi32>

// -----
%a = "test.op"() : () -> tensor<2xcomplex<f32>>
%0 = hlo.floor %a : tensor<2xcomplex<f32>>
// CHECK: error: 'hlo.floor' op operand must have a floating-point element type, got tensor<2xcomplex<f32>>

// -----
%a = "test.op"() : () -> tensor<i8>
%0 = hlo.round_nearest_even %a : tensor<i8>
// CHECK: error: 'hlo.round_nearest_even' op operand must have a floating-point element type, got tensor<i8>

// -----
%a = "test.op"() : () -> tensor<3xf32>
%0 = hlo.not %a : tensor<3xf32>
// CHECK: error: 'hlo.not' op operand must have a boolean or integer element type, got tensor<3xf32>

// -----
%a = "test.op"() : () -> tensor<3xui16>
%0 = hlo.sign %a : tensor<3xui16>
// CHECK: error: 'hlo.sign' op operand must have a signed integer, floating-point or complex element type, got tensor<3xui16>

// -----
// Unary result types.
%a = "test.op"() : () -> tensor<4xf32>
%0 = "hlo.sqrt"(%a) : (tensor<4xf32>) -> tensor<4xf64>
// CHECK: error: 'hlo.sqrt' op result type tensor<4xf64> must be tensor<4xf32>

// -----
%a = "test.op"() : () -> tensor<4xf32>
%0 = "hlo.tanh"(%a) : (tensor<4xf32>) -> tensor<2x2xf32>
// CHECK: error: 'hlo.tanh' op result type tensor<2x2xf32> must be tensor<4xf32>

// -----
%a = "test.op"() : () -> tensor<2xcomplex<f32>>
%0 = "hlo.abs"(%a) : (tensor<2xcomplex<f32>>) -> tensor<2xcomplex<f32>>
// CHECK: error: 'hlo.abs' op result type tensor<2xcomplex<f32>> must be tensor<2xf32>

// -----
%a = "test.op"() : () -> tensor<2xcomplex<f64>>
%0 = hlo.abs %a : (tensor<2xcomplex<f64>>) -> tensor<2xf32>
// CHECK: error: 'hlo.abs' op result type tensor<2xf32> must be tensor<2xf64>

// -----
// Element-type classes of the binary ops.
%a = "test.op"() : () -> tensor<2xi1>
%0 = hlo.subtract %a, %a : tensor<2xi1>
// CHECK: error: 'hlo.subtract' op operands must have a numeric (non-boolean) element type, got tensor<2xi1>

// -----
%a = "test.op"() : () -> tensor<2xi1>
%0 = hlo.divide %a, %a : tensor<2xi1>
// CHECK: error: 'hlo.divide' op operands must have a numeric (non-boolean) element type, got tensor<2xi1>

// -----
%a = "test.op"() : () -> tensor<f32>
%0 = hlo.and %a, %a : tensor<f32>
// CHECK: error: 'hlo.and' op operands must have a boolean or integer element type, got tensor<f32>

// -----
%a = "test.op"() : () -> tensor<bf16>
%0 = hlo.xor %a, %a : tensor<bf16>
// CHECK: error: 'hlo.xor' op operands must have a boolean or integer element type, got tensor<bf16>

// -----
%a = "test.op"() : () -> tensor<3xi32>
%0 = hlo.atan2 %a, %a : tensor<3xi32>
// CHECK: error: 'hlo.atan2' op operands must have a floating-point or complex element type, got tensor<3xi32>

// -----
%a = "test.op"() : () -> tensor<3xi1>
%0 = hlo.shift_left %a, %a : tensor<3xi1>
// CHECK: error: 'hlo.shift_left' op operands must have an integer element type, got tensor<3xi1>

// -----
%a = "test.op"() : () -> tensor<3xf32>
%0 = hlo.shift_right_logical %a, %a : tensor<3xf32>
// CHECK: error: 'hlo.shift_right_logical' op operands must have an integer element type, got tensor<3xf32>

// -----
// Binary type agreement.
%a = "test.op"() : () -> tensor<4xf32>
%b = "test.op"() : () -> tensor<4xf64>
%0 = "hlo.add"(%a, %b) : (tensor<4xf32>, tensor<4xf64>) -> tensor<4xf32>
// CHECK: error: 'hlo.add' op operand types tensor<4xf32>, tensor<4xf64> and result type tensor<4xf32> must be equal

// -----
%a = "test.op"() : () -> tensor<4xi32>
%b = "test.op"() : () -> tensor<2xi32>
%0 = "hlo.maximum"(%a, %b) : (tensor<4xi32>, tensor<2xi32>) -> tensor<4xi32>
// CHECK: error: 'hlo.maximum' op operand types tensor<4xi32>, tensor<2xi32> and result type tensor<4xi32> must be equal

// -----
%a = "test.op"() : () -> tensor<4xi32>
%0 = hlo.minimum %a, %a : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi64>
// CHECK: error: 'hlo.minimum' op operand types tensor<4xi32>, tensor<4xi32> and result type tensor<4xi64> must be equal

// -----
// compare
%a = "test.op"() : () -> tensor<4xi32>
%b = "test.op"() : () -> tensor<4xi64>
%0 = hlo.compare LT, %a, %b : (tensor<4xi32>, tensor<4xi64>) -> tensor<4xi1>
// CHECK: error: 'hlo.compare' op operand types tensor<4xi32> and tensor<4xi64> must be equal

// -----
%a = "test.op"() : () -> tensor<4xi32>
%0 = hlo.compare LT, %a, %a : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
// CHECK: error: 'hlo.compare' op result type tensor<4xi32> must be tensor<4xi1>

// -----
%a = "test.op"() : () -> tensor<4xi32>
%0 = hlo.compare LT, %a, %a : (tensor<4xi32>, tensor<4xi32>) -> tensor<i1>
// CHECK: error: 'hlo.compare' op result type tensor<i1> must be tensor<4xi1>

// -----
%a = "test.op"() : () -> tensor<4xf32>
%0 = hlo.compare LT, %a, %a, SIGNED : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
// CHECK: error: 'hlo.compare' op compare_type SIGNED is not valid for element type f32 (expected FLOAT or TOTALORDER)

// -----
%a = "test.op"() : () -> tensor<4xi32>
%0 = hlo.compare LT, %a, %a, FLOAT : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
// CHECK: error: 'hlo.compare' op compare_type FLOAT is not valid for element type i32 (expected SIGNED)

// -----
%a = "test.op"() : () -> tensor<4xi32>
%0 = hlo.compare LT, %a, %a, UNSIGNED : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
// CHECK: error: 'hlo.compare' op compare_type UNSIGNED is not valid for element type i32 (expected SIGNED)

// -----
%a = "test.op"() : () -> tensor<4xui32>
%0 = hlo.compare LT, %a, %a, SIGNED : (tensor<4xui32>, tensor<4xui32>) -> tensor<4xi1>
// CHECK: error: 'hlo.compare' op compare_type SIGNED is not valid for element type ui32 (expected UNSIGNED)

// -----
%a = "test.op"() : () -> tensor<4xi1>
%0 = hlo.compare EQ, %a, %a, FLOAT : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
// CHECK: error: 'hlo.compare' op compare_type FLOAT is not valid for element type i1 (expected SIGNED or UNSIGNED)

// -----
%a = "test.op"() : () -> tensor<complex<f32>>
%0 = hlo.compare EQ, %a, %a, TOTALORDER : (tensor<complex<f32>>, tensor<complex<f32>>) -> tensor<i1>
// CHECK: error: 'hlo.compare' op compare_type TOTALORDER is not valid for element type complex<f32> (expected FLOAT)

// -----
// select
%p = "test.op"() : () -> tensor<i32>
%a = "test.op"() : () -> tensor<4xf32>
%0 = hlo.select %p, %a, %a : (tensor<i32>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
// CHECK: error: 'hlo.select' op pred must have element type i1, got tensor<i32>

// -----
%p = "test.op"() : () -> tensor<i1>
%a = "test.op"() : () -> tensor<4xf32>
%b = "test.op"() : () -> tensor<4xf16>
%0 = hlo.select %p, %a, %b : (tensor<i1>, tensor<4xf32>, tensor<4xf16>) -> tensor<4xf32>
// CHECK: error: 'hlo.select' op on_true tensor<4xf32>, on_false tensor<4xf16> and result tensor<4xf32> must have the same type

// -----
%p = "test.op"() : () -> tensor<i1>
%a = "test.op"() : () -> tensor<4xf32>
%0 = hlo.select %p, %a, %a : (tensor<i1>, tensor<4xf32>, tensor<4xf32>) -> tensor<2x2xf32>
// CHECK: error: 'hlo.select' op on_true tensor<4xf32>, on_false tensor<4xf32> and result tensor<2x2xf32> must have the same type

// -----
%p = "test.op"() : () -> tensor<2xi1>
%a = "test.op"() : () -> tensor<4xf32>
%0 = hlo.select %p, %a, %a : (tensor<2xi1>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
// CHECK: error: 'hlo.select' op pred shape [2] must be [] or the operand shape [4]

// -----
// clamp
%a = "test.op"() : () -> tensor<4xf32>
%0 = hlo.clamp %a, %a, %a : (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf64>
// CHECK: error: 'hlo.clamp' op result type tensor<4xf64> must equal operand type tensor<4xf32>

// -----
%m = "test.op"() : () -> tensor<f64>
%a = "test.op"() : () -> tensor<4xf32>
%0 = hlo.clamp %m, %a, %a : (tensor<f64>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
// CHECK: error: 'hlo.clamp' op min element type f64 must equal operand element type f32

// -----
%m = "test.op"() : () -> tensor<2xf32>
%a = "test.op"() : () -> tensor<4xf32>
%0 = hlo.clamp %m, %a, %a : (tensor<2xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
// CHECK: error: 'hlo.clamp' op min shape [2] must be [] or the operand shape [4]

// -----
%m = "test.op"() : () -> tensor<i32>
%a = "test.op"() : () -> tensor<4xf32>
%0 = hlo.clamp %a, %a, %m : (tensor<4xf32>, tensor<4xf32>, tensor<i32>) -> tensor<4xf32>
// CHECK: error: 'hlo.clamp' op max element type i32 must equal operand element type f32

// -----
%m = "test.op"() : () -> tensor<1xf32>
%a = "test.op"() : () -> tensor<4xf32>
%0 = hlo.clamp %a, %a, %m : (tensor<4xf32>, tensor<4xf32>, tensor<1xf32>) -> tensor<4xf32>
// CHECK: error: 'hlo.clamp' op max shape [1] must be [] or the operand shape [4]

// -----
// convert, bitcast_convert, is_finite
%a = "test.op"() : () -> tensor<2x3xf32>
%0 = hlo.convert %a : (tensor<2x3xf32>) -> tensor<6xi32>
// CHECK: error: 'hlo.convert' op operand shape [2, 3] and result shape [6] must match

// -----
%a = "test.op"() : () -> tensor<2xf32>
%0 = hlo.bitcast_convert %a : (tensor<2xf32>) -> tensor<4xi32>
// CHECK: error: 'hlo.bitcast_convert' op operand tensor<2xf32> cannot be bitcast to tensor<4xi32>: bit widths 32 and 32 need equal shapes, or a trailing dimension of their ratio on the narrower side

// -----
%a = "test.op"() : () -> tensor<2xf32>
%0 = hlo.bitcast_convert %a : (tensor<2xf32>) -> tensor<2x2xi8>
// CHECK: error: 'hlo.bitcast_convert' op operand tensor<2xf32> cannot be bitcast to tensor<2x2xi8>: bit widths 32 and 8 need equal shapes, or a trailing dimension of their ratio on the narrower side

// -----
%a = "test.op"() : () -> tensor<2xi32>
%0 = hlo.bitcast_convert %a : (tensor<2xi32>) -> tensor<2xf64>
// CHECK: error: 'hlo.bitcast_convert' op operand tensor<2xi32> cannot be bitcast to tensor<2xf64>: bit widths 32 and 64 need equal shapes, or a trailing dimension of their ratio on the narrower side

// -----
%a = "test.op"() : () -> tensor<4xi32>
%0 = hlo.is_finite %a : (tensor<4xi32>) -> tensor<4xi1>
// CHECK: error: 'hlo.is_finite' op operand must have a floating-point element type, got tensor<4xi32>

// -----
%a = "test.op"() : () -> tensor<4xf32>
%0 = hlo.is_finite %a : (tensor<4xf32>) -> tensor<4xi8>
// CHECK: error: 'hlo.is_finite' op result type tensor<4xi8> must be tensor<4xi1>

// -----
// Parse errors of the pretty forms.
%a = "test.op"() : () -> tensor<4xi32>
%0 = hlo.compare FOO, %a, %a : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
// CHECK: error: Expected `EQ`, `NE`, `GE`, `GT`, `LE`, or `LT`.
// CHECK: note: while parsing 'hlo.compare'

// -----
%a = "test.op"() : () -> tensor<4xi32>
%0 = hlo.compare LT, %a, %a, WEIRD : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
// CHECK: error: Expected `NOTYPE`, `FLOAT`, `TOTALORDER`, `SIGNED`, or `UNSIGNED`.
// CHECK: note: while parsing 'hlo.compare'

// -----
%a = "test.op"() : () -> tensor<4xi32>
%0 = hlo.compare LT %a, %a : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
// CHECK: error: Expected ','
// CHECK: note: while parsing 'hlo.compare'

// -----
%a = "test.op"() : () -> tensor<4xi32>
%0 = hlo.add %a, %a tensor<4xi32>
// CHECK: error: Expected ':'
// CHECK: note: while parsing 'hlo.add'

// -----
%a = "test.op"() : () -> tensor<4xi32>
%0 = hlo.add %a, %a : tensor<4xi32>, tensor<4xi32>, tensor<4xi32>
// CHECK: error: expected 2 types, got 3
// CHECK: note: while parsing 'hlo.add'

// -----
%a = "test.op"() : () -> tensor<4xi32>
%0 = hlo.add %a, %a : (tensor<4xi32>) -> tensor<4xi32>
// CHECK: error: 2 operands but 1 operand types in the signature
// CHECK: note: while parsing 'hlo.add'

// -----
%a = "test.op"() : () -> tensor<4xi32>
%0 = hlo.add %a, %a : tensor<4xf32>
// CHECK: error: operand is used with type tensor<4xf32>, but has been previously used or defined with type tensor<4xi32>
// CHECK: note: while parsing 'hlo.add'

// -----
%a = "test.op"() : () -> tensor<4xi32>
%0 = hlo.negate %a : 
// CHECK: error: type expected
// CHECK: note: while parsing 'hlo.negate'

// -----
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
