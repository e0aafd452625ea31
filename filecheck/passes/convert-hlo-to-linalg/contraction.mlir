// RUN: minixla-opt %s --split-input-file -p convert-hlo-to-linalg | filecheck %s

// CHECK-LABEL: func.func @matmul
// CHECK:       linalg.matmul
func.func @matmul(%a: tensor<3x4xf32>, %b: tensor<4x5xf32>) -> tensor<3x5xf32> {
  %r = hlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<3x4xf32>, tensor<4x5xf32>) -> tensor<3x5xf32>
  return %r : tensor<3x5xf32>
}

// -----

// CHECK-LABEL: func.func @batched
// CHECK:       linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
// CHECK:       arith.mulf
// CHECK:       arith.addf
func.func @batched(%a: tensor<2x3x4xf32>, %b: tensor<2x4x5xf32>) -> tensor<2x3x5xf32> {
  %r = hlo.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>
  return %r : tensor<2x3x5xf32>
}

// -----

// A float convolution without groups: patches (im2col) read the unpadded x with
// bounds checks (no padded copy), then a gemm-shaped contraction.
// CHECK-LABEL: func.func @conv
// CHECK-NOT:   tensor.insert_slice
// CHECK:       linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3, d4, d5)>]
// CHECK-SAME:  outs(%{{.*}} : tensor<1x3x3x3x3x2xf32>)
// CHECK:       arith.cmpi sge
// CHECK:       arith.cmpi slt
// CHECK:       tensor.extract %{{.*}} : tensor<1x6x6x2xf32>
// CHECK-NEXT:  arith.select
// CHECK:       linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d4, d5, d6)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d4, d5, d6, d3)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
// CHECK:       arith.mulf
// CHECK:       arith.addf
// CHECK-NOT:   tensor.collapse_shape
func.func @conv(%x: tensor<1x6x6x2xf32>, %k: tensor<3x3x2x4xf32>) -> tensor<1x3x3x4xf32> {
  %r = hlo.convolution(%x, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [2, 2], pad = [[1, 1], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x6x6x2xf32>, tensor<3x3x2x4xf32>) -> tensor<1x3x3x4xf32>
  return %r : tensor<1x3x3x4xf32>
}

// -----

// Grouped (and integer) convolutions keep the direct form.
// CHECK-LABEL: func.func @grouped_conv
// CHECK:       linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]
// CHECK:       tensor.collapse_shape
func.func @grouped_conv(%x: tensor<1x6x4xf32>, %k: tensor<3x2x4xf32>) -> tensor<1x4x4xf32> {
  %r = hlo.convolution(%x, %k) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {stride = [1], pad = [[0, 0]]} {batch_group_count = 1 : i64, feature_group_count = 2 : i64} : (tensor<1x6x4xf32>, tensor<3x2x4xf32>) -> tensor<1x4x4xf32>
  return %r : tensor<1x4x4xf32>
}

// -----

// The kernel's output feature in the middle (the input gradient's [0, 1, o, i]):
// the kernel is transposed first so K collapses in it.
// CHECK-LABEL: func.func @kernel_feature_in_middle
// CHECK:       linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>]
// CHECK-SAME:  ins(%{{.*}} : tensor<3x3x2x4xf32>) outs(%{{.*}} : tensor<3x3x4x2xf32>)
func.func @kernel_feature_in_middle(%x: tensor<1x5x5x4xf32>, %k: tensor<3x3x2x4xf32>) -> tensor<1x3x3x2xf32> {
  %r = hlo.convolution(%x, %k) dim_numbers = [b, 0, 1, f]x[0, 1, o, i]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[0, 0], [0, 0]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x5x5x4xf32>, tensor<3x3x2x4xf32>) -> tensor<1x3x3x2xf32>
  return %r : tensor<1x3x3x2xf32>
}

// -----

// The kernel gradient's form (x as [f, 0, 1, b]: its unit-stride dim is an M dim):
// patches laid out [K..., M...] = [n, oh, ow, kh, kw, c], the copy unit-stride in x.
// CHECK-LABEL: func.func @kernel_gradient
// CHECK:       linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, (d3 + d1), (d4 + d2), d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3, d4, d5)>]
// CHECK-SAME:  outs(%{{.*}} : tensor<2x3x3x2x2x4xf32>)
// CHECK:       linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d4, d5, d6, d0, d1, d2)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d4, d5, d6, d3)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)>]
func.func @kernel_gradient(%x: tensor<2x4x4x4xf32>, %dy: tensor<2x3x3x5xf32>) -> tensor<2x2x4x5xf32> {
  %r = hlo.convolution(%x, %dy) dim_numbers = [f, 0, 1, b]x[i, 0, 1, o]->[0, 1, b, f], window = {stride = [1, 1], pad = [[0, 0], [0, 0]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x4x4x4xf32>, tensor<2x3x3x5xf32>) -> tensor<2x2x4x5xf32>
  return %r : tensor<2x2x4x5xf32>
}

// -----

// A float16 convolution runs in float32 (as the f16 dot accumulates in f32, and XLA's CPU backend
// does): its operands are extended, the patches and gemm are f32, the result is truncated once.
// CHECK-LABEL: func.func @conv_f16
// CHECK:       arith.extf %{{.*}} : f16 to f32
// CHECK:       arith.extf %{{.*}} : f16 to f32
// CHECK:       outs(%{{.*}} : tensor<1x3x3x3x3x2xf32>)
// CHECK:       arith.mulf
// CHECK-NEXT:  arith.addf
// CHECK:       arith.truncf %{{.*}} : f32 to f16
// CHECK:       return %{{.*}} : tensor<1x3x3x4xf16>
func.func @conv_f16(%x: tensor<1x6x6x2xf16>, %k: tensor<3x3x2x4xf16>) -> tensor<1x3x3x4xf16> {
  %r = hlo.convolution(%x, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [2, 2], pad = [[1, 1], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x6x6x2xf16>, tensor<3x3x2x4xf16>) -> tensor<1x3x3x4xf16>
  return %r : tensor<1x3x3x4xf16>
}
