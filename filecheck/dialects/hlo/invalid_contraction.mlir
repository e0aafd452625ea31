// RUN: minixla-opt %s --split-input-file --verify-diagnostics | filecheck %s

// dot_general
%a = "test.op"() : () -> tensor<2x3xf32>
%b = "test.op"() : () -> tensor<3x4xf32>
%0 = hlo.dot_general %a, %b, batching_dims = [0] x [], contracting_dims = [1] x [0] : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
// CHECK: error: 'hlo.dot_general' op lhs and rhs batching dims [0] and [] differ in length

// -----
%a = "test.op"() : () -> tensor<2x3xf32>
%b = "test.op"() : () -> tensor<3x4xf32>
%0 = hlo.dot_general %a, %b, contracting_dims = [1] x [0, 1] : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
// CHECK: error: 'hlo.dot_general' op lhs and rhs contracting dims [1] and [0, 1] differ in length

// -----
%a = "test.op"() : () -> tensor<2x3xf32>
%b = "test.op"() : () -> tensor<3x4xf32>
%0 = hlo.dot_general %a, %b, contracting_dims = [2] x [0] : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
// CHECK: error: 'hlo.dot_general' op lhs dimension 2 is out of range for tensor<2x3xf32>

// -----
%a = "test.op"() : () -> tensor<2x3xf32>
%b = "test.op"() : () -> tensor<3x4xf32>
%0 = hlo.dot_general %a, %b, contracting_dims = [1] x [-1] : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
// CHECK: error: 'hlo.dot_general' op rhs dimension -1 is out of range for tensor<3x4xf32>

// -----
%a = "test.op"() : () -> tensor<3x3xf32>
%b = "test.op"() : () -> tensor<3x3xf32>
%0 = hlo.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [0] x [1] : (tensor<3x3xf32>, tensor<3x3xf32>) -> tensor<3xf32>
// CHECK: error: 'hlo.dot_general' op lhs batching and contracting dims overlap or repeat: [0, 0]

// -----
%a = "test.op"() : () -> tensor<2x3xf32>
%b = "test.op"() : () -> tensor<3x4xf32>
%0 = hlo.dot_general %a, %b, contracting_dims = [1, 1] x [0, 1] : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
// CHECK: error: 'hlo.dot_general' op lhs batching and contracting dims overlap or repeat: [1, 1]

// -----
%a = "test.op"() : () -> tensor<5x2x3xf32>
%b = "test.op"() : () -> tensor<4x3x4xf32>
%0 = hlo.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<5x2x3xf32>, tensor<4x3x4xf32>) -> tensor<5x2x4xf32>
// CHECK: error: 'hlo.dot_general' op batching dims lhs 0 (size 5) and rhs 0 (size 4) differ

// -----
%a = "test.op"() : () -> tensor<2x3xf32>
%b = "test.op"() : () -> tensor<4x4xf32>
%0 = hlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<2x3xf32>, tensor<4x4xf32>) -> tensor<2x4xf32>
// CHECK: error: 'hlo.dot_general' op contracting dims lhs 1 (size 3) and rhs 0 (size 4) differ

// -----
%a = "test.op"() : () -> tensor<2x3xf32>
%b = "test.op"() : () -> tensor<3x4xf32>
%0 = hlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<4x2xf32>
// CHECK: error: 'hlo.dot_general' op result shape [4, 2] must be [2, 4]

// -----
%a = "test.op"() : () -> tensor<2x3xf32>
%b = "test.op"() : () -> tensor<3x4xf32>
%0 = hlo.dot_general %a, %b, contracting_dims = [1] x [0], precision = [DEFAULT] : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
// CHECK: error: 'hlo.dot_general' op precision_config must have 0 or 2 entries

// -----
// dot_general parse errors
%a = "test.op"() : () -> tensor<2x3xf32>
%b = "test.op"() : () -> tensor<3x4xf32>
%0 = hlo.dot_general %a, %b, contracting_dims = [1] x [0], precision = [FAST, DEFAULT] : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
// CHECK: error: Expected `DEFAULT`, `HIGH`, or `HIGHEST`.
// CHECK: note: while parsing 'hlo.dot_general'

// -----
%a = "test.op"() : () -> tensor<2x3xf32>
%b = "test.op"() : () -> tensor<3x4xf32>
%0 = hlo.dot_general %a, %b, contract_dims = [1] x [0] : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
// CHECK: error: Expected one of 'algorithm', 'batching_dims', 'contracting_dims', 'precision'
// CHECK: note: while parsing 'hlo.dot_general'

// -----
%a = "test.op"() : () -> tensor<2x3xf32>
%b = "test.op"() : () -> tensor<3x4xf32>
%0 = hlo.dot_general %a, %b, contracting_dims = [1], [0] : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
// CHECK: error: Expected 'x'
// CHECK: note: while parsing 'hlo.dot_general'

// -----
%a = "test.op"() : () -> tensor<2x3xf32>
%b = "test.op"() : () -> tensor<3x4xf32>
%0 = "hlo.dot_general"(%a, %b) <{dot_dimension_numbers = #hlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimension = [0]>}> : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
// CHECK: error: unknown field 'rhs_contracting_dimension'; expected one of lhs_batching_dimensions, rhs_batching_dimensions, lhs_contracting_dimensions, rhs_contracting_dimensions
// CHECK: note: while parsing 'hlo.dot_general'

// -----
// convolution (valid form: 1x8x3 input, 3x3x4 kernel -> 1x6x4)
%x = "test.op"() : () -> tensor<1x8x3xf32>
%k = "test.op"() : () -> tensor<3x3x4xf32>
%0 = hlo.convolution(%x, %k) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f] {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x8x3xf32>, tensor<3x3x4xf32>) -> tensor<1x6x4x1xf32>
// CHECK: error: 'hlo.convolution' op lhs, rhs and result must have rank 3 for 1 spatial dimensions

// -----
%x = "test.op"() : () -> tensor<1x8x3xf32>
%k = "test.op"() : () -> tensor<3x3x4xf32>
%0 = hlo.convolution(%x, %k) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f] {batch_group_count = 1 : i64, feature_group_count = 0 : i64} : (tensor<1x8x3xf32>, tensor<3x3x4xf32>) -> tensor<1x6x4xf32>
// CHECK: error: 'hlo.convolution' op feature_group_count (0) and batch_group_count (1) must be positive

// -----
%x = "test.op"() : () -> tensor<1x8x3xf32>
%k = "test.op"() : () -> tensor<3x3x4xf32>
%0 = hlo.convolution(%x, %k) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f] {batch_group_count = -1 : i64, feature_group_count = 1 : i64} : (tensor<1x8x3xf32>, tensor<3x3x4xf32>) -> tensor<1x6x4xf32>
// CHECK: error: 'hlo.convolution' op feature_group_count (1) and batch_group_count (-1) must be positive

// -----
%x = "test.op"() : () -> tensor<2x8x4xf32>
%k = "test.op"() : () -> tensor<3x2x4xf32>
%0 = hlo.convolution(%x, %k) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f] {batch_group_count = 2 : i64, feature_group_count = 2 : i64} : (tensor<2x8x4xf32>, tensor<3x2x4xf32>) -> tensor<1x6x4xf32>
// CHECK: error: 'hlo.convolution' op feature_group_count and batch_group_count cannot both exceed 1

// -----
%x = "test.op"() : () -> tensor<3x8x3xf32>
%k = "test.op"() : () -> tensor<3x3x4xf32>
%0 = hlo.convolution(%x, %k) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f] {batch_group_count = 2 : i64, feature_group_count = 1 : i64} : (tensor<3x8x3xf32>, tensor<3x3x4xf32>) -> tensor<1x6x4xf32>
// CHECK: error: 'hlo.convolution' op input batch size 3 must be divisible by batch_group_count 2

// -----
%x = "test.op"() : () -> tensor<1x8x3xf32>
%k = "test.op"() : () -> tensor<3x2x4xf32>
%0 = hlo.convolution(%x, %k) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f] {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x8x3xf32>, tensor<3x2x4xf32>) -> tensor<1x6x4xf32>
// CHECK: error: 'hlo.convolution' op input features (3) / feature_group_count (1) must equal kernel input features (2)

// -----
%x = "test.op"() : () -> tensor<1x8x4xf32>
%k = "test.op"() : () -> tensor<3x2x3xf32>
%0 = hlo.convolution(%x, %k) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f] {batch_group_count = 1 : i64, feature_group_count = 2 : i64} : (tensor<1x8x4xf32>, tensor<3x2x3xf32>) -> tensor<1x6x3xf32>
// CHECK: error: 'hlo.convolution' op kernel output features (3) must be divisible by both group counts (2, 1)

// -----
%x = "test.op"() : () -> tensor<2x8x3xf32>
%k = "test.op"() : () -> tensor<3x3x3xf32>
%0 = hlo.convolution(%x, %k) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f] {batch_group_count = 2 : i64, feature_group_count = 1 : i64} : (tensor<2x8x3xf32>, tensor<3x3x3xf32>) -> tensor<1x6x3xf32>
// CHECK: error: 'hlo.convolution' op kernel output features (3) must be divisible by both group counts (1, 2)

// -----
%x = "test.op"() : () -> tensor<1x8x3xf32>
%k = "test.op"() : () -> tensor<3x3x4xf32>
%0 = hlo.convolution(%x, %k) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {stride = [0]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x8x3xf32>, tensor<3x3x4xf32>) -> tensor<1x6x4xf32>
// CHECK: error: 'hlo.convolution' op window strides must be 1 positive values, got [0]

// -----
%x = "test.op"() : () -> tensor<1x8x3xf32>
%k = "test.op"() : () -> tensor<3x3x4xf32>
%0 = hlo.convolution(%x, %k) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {stride = [1, 1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x8x3xf32>, tensor<3x3x4xf32>) -> tensor<1x6x4xf32>
// CHECK: error: 'hlo.convolution' op window strides must be 1 positive values, got [1, 1]

// -----
%x = "test.op"() : () -> tensor<1x8x3xf32>
%k = "test.op"() : () -> tensor<3x3x4xf32>
%0 = hlo.convolution(%x, %k) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {lhs_dilate = [0]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x8x3xf32>, tensor<3x3x4xf32>) -> tensor<1x6x4xf32>
// CHECK: error: 'hlo.convolution' op lhs_dilation must be 1 positive values, got [0]

// -----
%x = "test.op"() : () -> tensor<1x8x3xf32>
%k = "test.op"() : () -> tensor<3x3x4xf32>
%0 = hlo.convolution(%x, %k) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {rhs_dilate = [-2]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x8x3xf32>, tensor<3x3x4xf32>) -> tensor<1x6x4xf32>
// CHECK: error: 'hlo.convolution' op rhs_dilation must be 1 positive values, got [-2]

// -----
%x = "test.op"() : () -> tensor<1x8x3xf32>
%k = "test.op"() : () -> tensor<3x3x4xf32>
%0 = hlo.convolution(%x, %k) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {pad = [[0, 0], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x8x3xf32>, tensor<3x3x4xf32>) -> tensor<1x6x4xf32>
// CHECK: error: 'hlo.convolution' op padding must have shape [1, 2], got [2, 2]

// -----
%x = "test.op"() : () -> tensor<1x8x3xf32>
%k = "test.op"() : () -> tensor<3x3x4xf32>
%0 = hlo.convolution(%x, %k) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f] {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x8x3xf32>, tensor<3x3x4xf32>) -> tensor<1x7x4xf32>
// CHECK: error: 'hlo.convolution' op result shape [1, 7, 4] must be [1, 6, 4]

// -----
%x = "test.op"() : () -> tensor<1x8x3xf32>
%k = "test.op"() : () -> tensor<3x3x4xf32>
%0 = hlo.convolution(%x, %k) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {stride = [2], pad = [[1, 0]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x8x3xf32>, tensor<3x3x4xf32>) -> tensor<1x3x4xf32>
// CHECK: error: 'hlo.convolution' op result shape [1, 3, 4] must be [1, 4, 4]

// -----
// convolution parse errors
%x = "test.op"() : () -> tensor<1x8x3xf32>
%k = "test.op"() : () -> tensor<3x3x4xf32>
%0 = hlo.convolution(%x, %k) dim_numbers = [b, 0, 0]x[0, i, o]->[b, 0, f] {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x8x3xf32>, tensor<3x3x4xf32>) -> tensor<1x6x4xf32>
// CHECK: error: convolution layout must name 'b' and 'f' exactly once
// CHECK: note: while parsing 'hlo.convolution'

// -----
%x = "test.op"() : () -> tensor<1x8x3xf32>
%k = "test.op"() : () -> tensor<3x3x4xf32>
%0 = hlo.convolution(%x, %k) dim_numbers = [b, 1, f]x[0, i, o]->[b, 0, f] {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x8x3xf32>, tensor<3x3x4xf32>) -> tensor<1x6x4xf32>
// CHECK: error: convolution layout must hold 'b', 'f' and spatial dims 0..N-1, got ['b', 1, 'f']
// CHECK: note: while parsing 'hlo.convolution'

// -----
%x = "test.op"() : () -> tensor<1x8x3xf32>
%k = "test.op"() : () -> tensor<3x3x4xf32>
%0 = hlo.convolution(%x, %k) dim_numbers = [b, 0, f]x[0, b, o]->[b, 0, f] {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x8x3xf32>, tensor<3x3x4xf32>) -> tensor<1x6x4xf32>
// CHECK: error: convolution layout must name 'i' and 'o' exactly once
// CHECK: note: while parsing 'hlo.convolution'

// -----
%x = "test.op"() : () -> tensor<1x8x3xf32>
%k = "test.op"() : () -> tensor<3x3x4xf32>
%0 = hlo.convolution(%x, %k) dim_numbers = [b, 0, f]*[0, i, o]->[b, 0, f] {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x8x3xf32>, tensor<3x3x4xf32>) -> tensor<1x6x4xf32>
// CHECK: error: Expected 'x'
// CHECK: note: while parsing 'hlo.convolution'

// -----
%x = "test.op"() : () -> tensor<1x8x3xf32>
%k = "test.op"() : () -> tensor<3x3x4xf32>
%0 = hlo.convolution(%x, %k) dim_numbers = [b, 0, f]x[0, i, o][b, 0, f] {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x8x3xf32>, tensor<3x3x4xf32>) -> tensor<1x6x4xf32>
// CHECK: error: Expected '->'
// CHECK: note: while parsing 'hlo.convolution'

// -----
%x = "test.op"() : () -> tensor<1x8x3xf32>
%k = "test.op"() : () -> tensor<3x3x4xf32>
%0 = hlo.convolution(%x, %k) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {pad = [[1, 1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x8x3xf32>, tensor<3x3x4xf32>) -> tensor<1x6x4xf32>
// CHECK: error: pad entries must be [low, high] pairs
// CHECK: note: while parsing 'hlo.convolution'

// -----
%x = "test.op"() : () -> tensor<1x8x3xf32>
%k = "test.op"() : () -> tensor<3x3x4xf32>
%0 = hlo.convolution(%x, %k) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {dilate = [1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x8x3xf32>, tensor<3x3x4xf32>) -> tensor<1x6x4xf32>
// CHECK: error: Expected one of 'lhs_dilate', 'pad', 'reverse', 'rhs_dilate', 'stride'
// CHECK: note: while parsing 'hlo.convolution'

// -----
%x = "test.op"() : () -> tensor<1x8x3xf32>
%k = "test.op"() : () -> tensor<3x3x4xf32>
%0 = hlo.convolution(%x, %k) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f] {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x8x3xf32>) -> tensor<1x6x4xf32>
// CHECK: error: 2 operands but 1 types
// CHECK: note: while parsing 'hlo.convolution'

// -----
%x = "test.op"() : () -> tensor<1x8x3xf32>
%k = "test.op"() : () -> tensor<3x3x4xf32>
%0 = hlo.convolution(%x, %k) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f] {feature_group_count = 1 : i64} : (tensor<1x8x3xf32>, tensor<3x3x4xf32>) -> tensor<1x6x4xf32>
// CHECK: error: 'hlo.convolution' op property 'batch_group_count' expected in operation 'hlo.convolution'
