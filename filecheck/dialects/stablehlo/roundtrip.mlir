// RUN: minixla-opt %s --print-op-generic | minixla-opt | filecheck %s

// The stablehlo.* twins share syntax and verifiers with hlo.*; attributes
// carry the #stablehlo prefix.
func.func @elementwise(%a: tensor<2x3xf32>, %p: tensor<i1>) -> tensor<2x3xi1> {
  %c = stablehlo.constant dense<0x7F800000> : tensor<2x3xf32>
  %s = stablehlo.add %a, %c : tensor<2x3xf32>
  %t = stablehlo.select %p, %s, %a : tensor<i1>, tensor<2x3xf32>
  %cmp = stablehlo.compare GT, %t, %a, TOTALORDER : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
  %g = "stablehlo.compare"(%a, %a) <{comparison_direction = #stablehlo<comparison_direction LE>}> : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
  func.return %cmp : tensor<2x3xi1>
}
// CHECK-LABEL: func.func @elementwise(%a: tensor<2x3xf32>, %p: tensor<i1>) -> tensor<2x3xi1> {
// CHECK-NEXT:  %c = stablehlo.constant dense<0x7f800000> : tensor<2x3xf32>
// CHECK-NEXT:  %s = stablehlo.add %a, %c : tensor<2x3xf32>
// CHECK-NEXT:  %t = stablehlo.select %p, %s, %a : (tensor<i1>, tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:  %cmp = stablehlo.compare GT, %t, %a, TOTALORDER : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
// CHECK-NEXT:  %g = stablehlo.compare LE, %a, %a : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
// CHECK-NEXT:  func.return %cmp : tensor<2x3xi1>
// CHECK-NEXT:  }

func.func @shape_and_contraction(%a: tensor<2x3xbf16>, %b: tensor<3x4xbf16>, %v: tensor<3xbf16>) {
  %bc = stablehlo.broadcast_in_dim %v, dims = [1] : (tensor<3xbf16>) -> tensor<2x3xbf16>
  %t = stablehlo.transpose %bc, dims = [1, 0] : (tensor<2x3xbf16>) -> tensor<3x2xbf16>
  %sl = stablehlo.slice %a [0:2, 1:3] : (tensor<2x3xbf16>) -> tensor<2x2xbf16>
  %d = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x3xbf16>, tensor<3x4xbf16>) -> tensor<2x4xbf16>
  %gen = "stablehlo.dot_general"(%a, %b) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<2x3xbf16>, tensor<3x4xbf16>) -> tensor<2x4xbf16>
  func.return
}
// CHECK-LABEL: func.func @shape_and_contraction(%a: tensor<2x3xbf16>, %b: tensor<3x4xbf16>, %v: tensor<3xbf16>) {
// CHECK-NEXT:  %bc = stablehlo.broadcast_in_dim %v, dims = [1] : (tensor<3xbf16>) -> tensor<2x3xbf16>
// CHECK-NEXT:  %t = stablehlo.transpose %bc, dims = [1, 0] : (tensor<2x3xbf16>) -> tensor<3x2xbf16>
// CHECK-NEXT:  %sl = stablehlo.slice %a [0:2, 1:3] : (tensor<2x3xbf16>) -> tensor<2x2xbf16>
// CHECK-NEXT:  %d = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x3xbf16>, tensor<3x4xbf16>) -> tensor<2x4xbf16>
// CHECK-NEXT:  %gen = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<2x3xbf16>, tensor<3x4xbf16>) -> tensor<2x4xbf16>
// CHECK-NEXT:  func.return
// CHECK-NEXT:  }

func.func @regions(%a: tensor<2x3xf32>, %z: tensor<f32>, %n: tensor<i64>, %x: tensor<3x4x2xf32>, %idx: tensor<2x3x2xi64>) {
  %r = stablehlo.reduce(%a init: %z) applies stablehlo.add across dimensions = [1] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>
  %w = stablehlo.while(%i = %n) : tensor<i64>
    cond {
      %c = stablehlo.compare LT, %i, %n : (tensor<i64>, tensor<i64>) -> tensor<i1>
      stablehlo.return %c : tensor<i1>
    } do {
      stablehlo.return %i : tensor<i64>
    }
  %g = "stablehlo.gather"(%x, %idx) <{dimension_numbers = #stablehlo.gather<offset_dims = [2, 3], collapsed_slice_dims = [0], start_index_map = [1, 0], index_vector_dim = 2>, slice_sizes = array<i64: 1, 2, 2>}> : (tensor<3x4x2xf32>, tensor<2x3x2xi64>) -> tensor<2x3x2x2xf32>
  func.return
}
// CHECK-LABEL: func.func @regions(%a: tensor<2x3xf32>, %z: tensor<f32>, %n: tensor<i64>, %x: tensor<3x4x2xf32>, %idx: tensor<2x3x2xi64>) {
// CHECK-NEXT:  %r = stablehlo.reduce(%a init: %z) applies stablehlo.add across dimensions = [1] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>
// CHECK-NEXT:  %w = stablehlo.while(%i = %n) : tensor<i64> cond {
// CHECK-NEXT:  %c = stablehlo.compare LT, %i, %n : (tensor<i64>, tensor<i64>) -> tensor<i1>
// CHECK-NEXT:  stablehlo.return %c : tensor<i1>
// CHECK-NEXT:  } do {
// CHECK-NEXT:  stablehlo.return %i : tensor<i64>
// CHECK-NEXT:  }
// CHECK-NEXT:  %g = "stablehlo.gather"(%x, %idx) <{dimension_numbers = #stablehlo.gather<offset_dims = [2, 3], collapsed_slice_dims = [0], start_index_map = [1, 0], index_vector_dim = 2>, slice_sizes = array<i64: 1, 2, 2>}> : (tensor<3x4x2xf32>, tensor<2x3x2xi64>) -> tensor<2x3x2x2xf32>
// CHECK-NEXT:  func.return
// CHECK-NEXT:  }

func.func @convolution(%img: tensor<1x8x8x3xf32>, %k: tensor<3x3x3x16xf32>) {
  %c = stablehlo.convolution(%img, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [2, 2], pad = [[1, 1], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<1x8x8x3xf32>, tensor<3x3x3x16xf32>) -> tensor<1x4x4x16xf32>
  func.return
}
// CHECK-LABEL: func.func @convolution(%img: tensor<1x8x8x3xf32>, %k: tensor<3x3x3x16xf32>) {
// CHECK-NEXT:  %c = stablehlo.convolution(%img, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [2, 2], pad = {{\[\[}}1, 1], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<1x8x8x3xf32>, tensor<3x3x3x16xf32>) -> tensor<1x4x4x16xf32>
// CHECK-NEXT:  func.return
// CHECK-NEXT:  }
