// RUN: minixla-opt %s --split-input-file --verify-diagnostics | filecheck %s

// constant
%0 = "hlo.constant"() <{value = dense<[1, 2]> : tensor<2xi32>}> : () -> tensor<2xi64>
// CHECK: error: 'hlo.constant' op value type tensor<2xi32> must equal result type tensor<2xi64>

// -----
%0 = hlo.constant 1 : i32
// CHECK: error: expected a dense elements attribute, got 1 : i32
// CHECK: note: while parsing 'hlo.constant'

// -----
%0 = hlo.constant dense<[1, 2]> : tensor<3xi32>
// CHECK: error: Shape mismatch in dense literal. Expected [3] shape from the type, but got [2] shape.
// CHECK: note: while parsing 'hlo.constant'

// -----
%0 = "hlo.constant"() <{value = dense<1> : tensor<2xi3>}> : () -> tensor<2xi3>
// CHECK: error: 'hlo.constant' op result has unsupported element type i3 (supported: i1, i2, i4, i8..i64, {{.*}})

// -----
// iota
%0 = hlo.iota dim = 1 : tensor<4xi32>
// CHECK: error: 'hlo.iota' op iota_dimension 1 is out of range for result tensor<4xi32>

// -----
%0 = hlo.iota dim = 0 : tensor<i32>
// CHECK: error: 'hlo.iota' op iota_dimension 0 is out of range for result tensor<i32>

// -----
%0 = hlo.iota dims = 0 : tensor<4xi32>
// CHECK: error: Expected 'dim'
// CHECK: note: while parsing 'hlo.iota'

// -----
// broadcast_in_dim
%a = "test.op"() : () -> tensor<3xf32>
%0 = hlo.broadcast_in_dim %a, dims = [1] : (tensor<3xf32>) -> tensor<2x3xf64>
// CHECK: error: 'hlo.broadcast_in_dim' op operand and result: element types f32 and f64 differ

// -----
%a = "test.op"() : () -> tensor<3xf32>
%0 = hlo.broadcast_in_dim %a, dims = [0, 1] : (tensor<3xf32>) -> tensor<2x3xf32>
// CHECK: error: 'hlo.broadcast_in_dim' op broadcast_dimensions [0, 1] must have one entry per operand dimension (rank 1)

// -----
%a = "test.op"() : () -> tensor<3xf32>
%0 = hlo.broadcast_in_dim %a, dims = [2] : (tensor<3xf32>) -> tensor<2x3xf32>
// CHECK: error: 'hlo.broadcast_in_dim' op broadcast_dimensions contains 2, out of range for rank 2

// -----
%a = "test.op"() : () -> tensor<3x3xf32>
%0 = hlo.broadcast_in_dim %a, dims = [1, 1] : (tensor<3x3xf32>) -> tensor<3x3xf32>
// CHECK: error: 'hlo.broadcast_in_dim' op broadcast_dimensions must not repeat dimensions, got [1, 1]

// -----
%a = "test.op"() : () -> tensor<3xf32>
%0 = hlo.broadcast_in_dim %a, dims = [0] : (tensor<3xf32>) -> tensor<2x3xf32>
// CHECK: error: 'hlo.broadcast_in_dim' op operand dimension 0 has size 3, which cannot broadcast to result dimension 0 of size 2

// -----
%a = "test.op"() : () -> tensor<3xf32>
%0 = hlo.broadcast_in_dim %a, dim = [1] : (tensor<3xf32>) -> tensor<2x3xf32>
// CHECK: error: Expected 'dims'
// CHECK: note: while parsing 'hlo.broadcast_in_dim'

// -----
%a = "test.op"() : () -> tensor<3xf32>
%0 = hlo.broadcast_in_dim %a, dims = 1 : (tensor<3xf32>) -> tensor<2x3xf32>
// CHECK: error: '[' expected
// CHECK: note: while parsing 'hlo.broadcast_in_dim'

// -----
// reshape
%a = "test.op"() : () -> tensor<2x3xf32>
%0 = hlo.reshape %a : (tensor<2x3xf32>) -> tensor<6xi32>
// CHECK: error: 'hlo.reshape' op operand and result: element types f32 and i32 differ

// -----
%a = "test.op"() : () -> tensor<2x3xf32>
%0 = hlo.reshape %a : (tensor<2x3xf32>) -> tensor<5xf32>
// CHECK: error: 'hlo.reshape' op cannot reshape tensor<2x3xf32> (6 elements) to tensor<5xf32> (5 elements)

// -----
// transpose
%a = "test.op"() : () -> tensor<2x3xf32>
%0 = hlo.transpose %a, dims = [1, 0] : (tensor<2x3xf32>) -> tensor<3x2xf16>
// CHECK: error: 'hlo.transpose' op operand and result: element types f32 and f16 differ

// -----
%a = "test.op"() : () -> tensor<2x3xf32>
%0 = hlo.transpose %a, dims = [1, 1] : (tensor<2x3xf32>) -> tensor<3x3xf32>
// CHECK: error: 'hlo.transpose' op permutation [1, 1] is not a permutation of the operand's 2 dimensions

// -----
%a = "test.op"() : () -> tensor<2x3xf32>
%0 = hlo.transpose %a, dims = [1, 0] : (tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK: error: 'hlo.transpose' op result shape [2, 3] must be [3, 2]

// -----
// slice
%a = "test.op"() : () -> tensor<4xf32>
%0 = hlo.slice %a [0:2] : (tensor<4xf32>) -> tensor<2xi32>
// CHECK: error: 'hlo.slice' op operand and result: element types f32 and i32 differ

// -----
%a = "test.op"() : () -> tensor<4x4xf32>
%0 = hlo.slice %a [0:2] : (tensor<4x4xf32>) -> tensor<2xf32>
// CHECK: error: 'hlo.slice' op start_indices, limit_indices and strides need 2 entries each, got 1, 1, 1

// -----
%a = "test.op"() : () -> tensor<4xf32>
%0 = "hlo.slice"(%a) <{start_indices = array<i64: 0>, limit_indices = array<i64: 2, 2>, strides = array<i64: 1>}> : (tensor<4xf32>) -> tensor<2xf32>
// CHECK: error: 'hlo.slice' op start_indices, limit_indices and strides need 1 entries each, got 1, 2, 1

// -----
%a = "test.op"() : () -> tensor<4xf32>
%0 = hlo.slice %a [3:2] : (tensor<4xf32>) -> tensor<0xf32>
// CHECK: error: 'hlo.slice' op dimension 0: need 0 <= start (3) <= limit (2) <= size (4)

// -----
%a = "test.op"() : () -> tensor<4xf32>
%0 = hlo.slice %a [0:5] : (tensor<4xf32>) -> tensor<5xf32>
// CHECK: error: 'hlo.slice' op dimension 0: need 0 <= start (0) <= limit (5) <= size (4)

// -----
%a = "test.op"() : () -> tensor<4xf32>
%0 = hlo.slice %a [0:4:0] : (tensor<4xf32>) -> tensor<4xf32>
// CHECK: error: 'hlo.slice' op dimension 0: stride must be positive, got 0

// -----
%a = "test.op"() : () -> tensor<4xf32>
%0 = hlo.slice %a [0:4:3] : (tensor<4xf32>) -> tensor<1xf32>
// CHECK: error: 'hlo.slice' op result shape [1] must be [2]

// -----
%a = "test.op"() : () -> tensor<4xf32>
%0 = hlo.slice %a [0, 4] : (tensor<4xf32>) -> tensor<4xf32>
// CHECK: error: Expected ':'
// CHECK: note: while parsing 'hlo.slice'

// -----
// dynamic_slice
%a = "test.op"() : () -> tensor<4xf32>
%i = "test.op"() : () -> tensor<i32>
%0 = hlo.dynamic_slice %a, %i, sizes = [2] : (tensor<4xf32>, tensor<i32>) -> tensor<2xf16>
// CHECK: error: 'hlo.dynamic_slice' op operand and result: element types f32 and f16 differ

// -----
%a = "test.op"() : () -> tensor<4x4xf32>
%i = "test.op"() : () -> tensor<i32>
%0 = hlo.dynamic_slice %a, %i, sizes = [2, 2] : (tensor<4x4xf32>, tensor<i32>) -> tensor<2x2xf32>
// CHECK: error: 'hlo.dynamic_slice' op expected 2 start indices, got 1

// -----
%a = "test.op"() : () -> tensor<4xf32>
%i = "test.op"() : () -> tensor<1xi32>
%0 = hlo.dynamic_slice %a, %i, sizes = [2] : (tensor<4xf32>, tensor<1xi32>) -> tensor<2xf32>
// CHECK: error: 'hlo.dynamic_slice' op start index #0 must be a 0-d integer tensor, got tensor<1xi32>

// -----
%a = "test.op"() : () -> tensor<4xf32>
%i = "test.op"() : () -> tensor<f32>
%0 = hlo.dynamic_slice %a, %i, sizes = [2] : (tensor<4xf32>, tensor<f32>) -> tensor<2xf32>
// CHECK: error: 'hlo.dynamic_slice' op start index #0 must be a 0-d integer tensor, got tensor<f32>

// -----
%a = "test.op"() : () -> tensor<4x4xf32>
%i = "test.op"() : () -> tensor<i32>
%j = "test.op"() : () -> tensor<i64>
%0 = hlo.dynamic_slice %a, %i, %j, sizes = [2, 2] : (tensor<4x4xf32>, tensor<i32>, tensor<i64>) -> tensor<2x2xf32>
// CHECK: error: 'hlo.dynamic_slice' op start index must all have the same type, got ['tensor<i32>', 'tensor<i64>']

// -----
%a = "test.op"() : () -> tensor<4xf32>
%i = "test.op"() : () -> tensor<i32>
%0 = hlo.dynamic_slice %a, %i, sizes = [2, 2] : (tensor<4xf32>, tensor<i32>) -> tensor<2x2xf32>
// CHECK: error: 'hlo.dynamic_slice' op slice_sizes [2, 2] needs 1 entries

// -----
%a = "test.op"() : () -> tensor<4xf32>
%i = "test.op"() : () -> tensor<i32>
%0 = hlo.dynamic_slice %a, %i, sizes = [5] : (tensor<4xf32>, tensor<i32>) -> tensor<5xf32>
// CHECK: error: 'hlo.dynamic_slice' op slice size 5 of dimension 0 must be in [0, 4]

// -----
%a = "test.op"() : () -> tensor<4xf32>
%i = "test.op"() : () -> tensor<i32>
%0 = hlo.dynamic_slice %a, %i, sizes = [2] : (tensor<4xf32>, tensor<i32>) -> tensor<3xf32>
// CHECK: error: 'hlo.dynamic_slice' op result shape [3] must equal slice_sizes [2]

// -----
// dynamic_update_slice
%a = "test.op"() : () -> tensor<4xf32>
%u = "test.op"() : () -> tensor<2xf32>
%i = "test.op"() : () -> tensor<i32>
%0 = hlo.dynamic_update_slice %a, %u, %i : (tensor<4xf32>, tensor<2xf32>, tensor<i32>) -> tensor<2xf32>
// CHECK: error: 'hlo.dynamic_update_slice' op result type tensor<2xf32> must equal operand type tensor<4xf32>

// -----
%a = "test.op"() : () -> tensor<4xf32>
%u = "test.op"() : () -> tensor<2xi32>
%i = "test.op"() : () -> tensor<i32>
%0 = hlo.dynamic_update_slice %a, %u, %i : (tensor<4xf32>, tensor<2xi32>, tensor<i32>) -> tensor<4xf32>
// CHECK: error: 'hlo.dynamic_update_slice' op operand and update: element types f32 and i32 differ

// -----
%a = "test.op"() : () -> tensor<4xf32>
%u = "test.op"() : () -> tensor<1x2xf32>
%i = "test.op"() : () -> tensor<i32>
%0 = hlo.dynamic_update_slice %a, %u, %i : (tensor<4xf32>, tensor<1x2xf32>, tensor<i32>) -> tensor<4xf32>
// CHECK: error: 'hlo.dynamic_update_slice' op update rank 2 must equal operand rank 1

// -----
%a = "test.op"() : () -> tensor<4xf32>
%u = "test.op"() : () -> tensor<5xf32>
%i = "test.op"() : () -> tensor<i32>
%0 = hlo.dynamic_update_slice %a, %u, %i : (tensor<4xf32>, tensor<5xf32>, tensor<i32>) -> tensor<4xf32>
// CHECK: error: 'hlo.dynamic_update_slice' op update dimension 0 (5) exceeds operand's (4)

// -----
%a = "test.op"() : () -> tensor<4xf32>
%u = "test.op"() : () -> tensor<2xf32>
%0 = hlo.dynamic_update_slice %a, %u : (tensor<4xf32>, tensor<2xf32>) -> tensor<4xf32>
// CHECK: error: 'hlo.dynamic_update_slice' op expected 1 start indices, got 0

// -----
%a = "test.op"() : () -> tensor<4xf32>
%u = "test.op"() : () -> tensor<2xf32>
%i = "test.op"() : () -> tensor<i1>
%0 = hlo.dynamic_update_slice %a, %u, %i : (tensor<4xf32>, tensor<2xf32>, tensor<i1>) -> tensor<4xf32>
// CHECK: error: 'hlo.dynamic_update_slice' op start index #0 must be a 0-d integer tensor, got tensor<i1>

// -----
// concatenate
%0 = "hlo.concatenate"() <{dimension = 0 : i64}> : () -> tensor<0xf32>
// CHECK: error: 'hlo.concatenate' op needs at least one input

// -----
%a = "test.op"() : () -> tensor<2x3xf32>
%0 = hlo.concatenate %a, %a, dim = 2 : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x6xf32>
// CHECK: error: 'hlo.concatenate' op dimension 2 is out of range for rank 2

// -----
%a = "test.op"() : () -> tensor<2x3xf32>
%b = "test.op"() : () -> tensor<2x3xf16>
%0 = hlo.concatenate %a, %b, dim = 1 : (tensor<2x3xf32>, tensor<2x3xf16>) -> tensor<2x6xf32>
// CHECK: error: 'hlo.concatenate' op input #1 and result: element types f16 and f32 differ

// -----
%a = "test.op"() : () -> tensor<2x3xf32>
%b = "test.op"() : () -> tensor<6xf32>
%0 = hlo.concatenate %a, %b, dim = 0 : (tensor<2x3xf32>, tensor<6xf32>) -> tensor<4x3xf32>
// CHECK: error: 'hlo.concatenate' op input #1 has rank 1, expected 2

// -----
%a = "test.op"() : () -> tensor<2x3xf32>
%b = "test.op"() : () -> tensor<2x4xf32>
%0 = hlo.concatenate %a, %b, dim = 0 : (tensor<2x3xf32>, tensor<2x4xf32>) -> tensor<4x3xf32>
// CHECK: error: 'hlo.concatenate' op input #1 dimension 1 is 4, expected 3

// -----
%a = "test.op"() : () -> tensor<2x3xf32>
%0 = hlo.concatenate %a, %a, %a, dim = 0 : (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<4x3xf32>
// CHECK: error: 'hlo.concatenate' op result shape [4, 3] must be [6, 3]

// -----
%a = "test.op"() : () -> tensor<2x3xf32>
%0 = hlo.concatenate %a, %a, dim = [0] : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<4x3xf32>
// CHECK: error: Expected integer literal
// CHECK: note: while parsing 'hlo.concatenate'

// -----
// pad
%a = "test.op"() : () -> tensor<4xf32>
%v = "test.op"() : () -> tensor<i32>
%0 = hlo.pad %a, %v, low = [0], high = [0], interior = [0] : (tensor<4xf32>, tensor<i32>) -> tensor<4xf32>
// CHECK: error: 'hlo.pad' op operand and padding_value: element types f32 and i32 differ

// -----
%a = "test.op"() : () -> tensor<4xf32>
%v = "test.op"() : () -> tensor<f32>
%0 = hlo.pad %a, %v, low = [0], high = [0], interior = [0] : (tensor<4xf32>, tensor<f32>) -> tensor<4xf64>
// CHECK: error: 'hlo.pad' op operand and result: element types f32 and f64 differ

// -----
%a = "test.op"() : () -> tensor<4xf32>
%v = "test.op"() : () -> tensor<1xf32>
%0 = hlo.pad %a, %v, low = [0], high = [0], interior = [0] : (tensor<4xf32>, tensor<1xf32>) -> tensor<4xf32>
// CHECK: error: 'hlo.pad' op padding_value must be a 0-d tensor, got tensor<1xf32>

// -----
%a = "test.op"() : () -> tensor<4xf32>
%v = "test.op"() : () -> tensor<f32>
%0 = hlo.pad %a, %v, low = [0, 0], high = [0], interior = [0] : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
// CHECK: error: 'hlo.pad' op low, high and interior padding need 1 entries each, got 2, 1, 1

// -----
%a = "test.op"() : () -> tensor<4xf32>
%v = "test.op"() : () -> tensor<f32>
%0 = hlo.pad %a, %v, low = [0], high = [0], interior = [-1] : (tensor<4xf32>, tensor<f32>) -> tensor<1xf32>
// CHECK: error: 'hlo.pad' op interior padding must be non-negative, got [-1]

// -----
%a = "test.op"() : () -> tensor<4xf32>
%v = "test.op"() : () -> tensor<f32>
%0 = hlo.pad %a, %v, low = [-3], high = [-3], interior = [0] : (tensor<4xf32>, tensor<f32>) -> tensor<0xf32>
// CHECK: error: 'hlo.pad' op padding gives a negative result shape [-2]

// -----
%a = "test.op"() : () -> tensor<4xf32>
%v = "test.op"() : () -> tensor<f32>
%0 = hlo.pad %a, %v, low = [1], high = [1], interior = [1] : (tensor<4xf32>, tensor<f32>) -> tensor<6xf32>
// CHECK: error: 'hlo.pad' op result shape [6] must be [9]

// -----
%a = "test.op"() : () -> tensor<4xf32>
%v = "test.op"() : () -> tensor<f32>
%0 = hlo.pad %a, %v, high = [1], low = [1], interior = [1] : (tensor<4xf32>, tensor<f32>) -> tensor<9xf32>
// CHECK: error: Expected 'low'
// CHECK: note: while parsing 'hlo.pad'

// -----
// reverse
%a = "test.op"() : () -> tensor<2x3xf32>
%0 = hlo.reverse %a, dims = [0] : (tensor<2x3xf32>) -> tensor<3x2xf32>
// CHECK: error: 'hlo.reverse' op result type tensor<3x2xf32> must equal operand type tensor<2x3xf32>

// -----
%a = "test.op"() : () -> tensor<2x3xf32>
%0 = hlo.reverse %a, dims = [2] : tensor<2x3xf32>
// CHECK: error: 'hlo.reverse' op dimensions contains 2, out of range for rank 2

// -----
%a = "test.op"() : () -> tensor<2x3xf32>
%0 = hlo.reverse %a, dims = [-1] : tensor<2x3xf32>
// CHECK: error: 'hlo.reverse' op dimensions contains -1, out of range for rank 2

// -----
%a = "test.op"() : () -> tensor<2x3xf32>
%0 = hlo.reverse %a, dims = [1, 0, 1] : tensor<2x3xf32>
// CHECK: error: 'hlo.reverse' op dimensions must not repeat dimensions, got [1, 0, 1]
