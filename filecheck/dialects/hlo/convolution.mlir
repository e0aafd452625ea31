// RUN: minixla-opt %s --print-op-generic | minixla-opt | filecheck %s

// 2-d NHWC/HWIO with every window item; feature and batch groups; 1-d and 0-d spatial cases.
func.func @conv2d(%img: tensor<1x8x8x3xf32>, %k: tensor<3x3x3x16xf32>) {
  %full = hlo.convolution(%img, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [2, 2], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, true]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x8x8x3xf32>, tensor<3x3x3x16xf32>) -> tensor<1x4x4x16xf32>
  %plain = hlo.convolution(%img, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f] {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x8x8x3xf32>, tensor<3x3x3x16xf32>) -> tensor<1x6x6x16xf32>
  %dil = hlo.convolution(%img, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {pad = [[0, -1], [2, 0]], lhs_dilate = [2, 1], rhs_dilate = [1, 2]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#hlo<precision HIGHEST>, #hlo<precision DEFAULT>]} : (tensor<1x8x8x3xf32>, tensor<3x3x3x16xf32>) -> tensor<1x12x6x16xf32>
  func.return
}
// CHECK-LABEL: func.func @conv2d(%img: tensor<1x8x8x3xf32>, %k: tensor<3x3x3x16xf32>) {
// CHECK-NEXT:  %full = hlo.convolution(%img, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [2, 2], pad = {{\[\[}}1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, true]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x8x8x3xf32>, tensor<3x3x3x16xf32>) -> tensor<1x4x4x16xf32>
// CHECK-NEXT:  %plain = hlo.convolution(%img, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f] {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x8x8x3xf32>, tensor<3x3x3x16xf32>) -> tensor<1x6x6x16xf32>
// CHECK-NEXT:  %dil = hlo.convolution(%img, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {pad = {{\[\[}}0, -1], [2, 0]], lhs_dilate = [2, 1], rhs_dilate = [1, 2]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#hlo<precision HIGHEST>, #hlo<precision DEFAULT>]} : (tensor<1x8x8x3xf32>, tensor<3x3x3x16xf32>) -> tensor<1x12x6x16xf32>
// CHECK-NEXT:  func.return
// CHECK-NEXT:  }

func.func @conv_groups(%x: tensor<2x6x10xbf16>, %k: tensor<4x3x3xbf16>, %y: tensor<4x3x10xf64>, %l: tensor<6x3x3xf64>) {
  %fg = hlo.convolution(%x, %k) dim_numbers = [b, f, 0]x[o, i, 0]->[b, f, 0], window = {stride = [3]} {batch_group_count = 1 : i64, feature_group_count = 2 : i64} : (tensor<2x6x10xbf16>, tensor<4x3x3xbf16>) -> tensor<2x4x3xbf16>
  %bg = hlo.convolution(%y, %l) dim_numbers = [b, f, 0]x[o, i, 0]->[0, b, f] {batch_group_count = 2 : i64, feature_group_count = 1 : i64} : (tensor<4x3x10xf64>, tensor<6x3x3xf64>) -> tensor<8x2x6xf64>
  func.return
}
// CHECK-LABEL: func.func @conv_groups(%x: tensor<2x6x10xbf16>, %k: tensor<4x3x3xbf16>, %y: tensor<4x3x10xf64>, %l: tensor<6x3x3xf64>) {
// CHECK-NEXT:  %fg = hlo.convolution(%x, %k) dim_numbers = [b, f, 0]x[o, i, 0]->[b, f, 0], window = {stride = [3]} {batch_group_count = 1 : i64, feature_group_count = 2 : i64} : (tensor<2x6x10xbf16>, tensor<4x3x3xbf16>) -> tensor<2x4x3xbf16>
// CHECK-NEXT:  %bg = hlo.convolution(%y, %l) dim_numbers = [b, f, 0]x[o, i, 0]->[0, b, f] {batch_group_count = 2 : i64, feature_group_count = 1 : i64} : (tensor<4x3x10xf64>, tensor<6x3x3xf64>) -> tensor<8x2x6xf64>
// CHECK-NEXT:  func.return
// CHECK-NEXT:  }

func.func @conv0d(%x: tensor<2x3xi32>, %k: tensor<3x4xi32>, %t: tensor<3x2xi32>, %kt: tensor<4x3xi32>) {
  %r = hlo.convolution(%x, %k) dim_numbers = [b, f]x[i, o]->[b, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, tag} : (tensor<2x3xi32>, tensor<3x4xi32>) -> tensor<2x4xi32>
  %g = "hlo.convolution"(%t, %kt) <{dimension_numbers = #hlo.conv<[f, b]x[o, i]->[f, b]>, feature_group_count = 1 : i64, batch_group_count = 1 : i64}> : (tensor<3x2xi32>, tensor<4x3xi32>) -> tensor<4x2xi32>
  func.return
}
// CHECK-LABEL: func.func @conv0d(%x: tensor<2x3xi32>, %k: tensor<3x4xi32>, %t: tensor<3x2xi32>, %kt: tensor<4x3xi32>) {
// CHECK-NEXT:  %r = hlo.convolution(%x, %k) dim_numbers = [b, f]x[i, o]->[b, f] {batch_group_count = 1 : i64, feature_group_count = 1 : i64, tag} : (tensor<2x3xi32>, tensor<3x4xi32>) -> tensor<2x4xi32>
// CHECK-NEXT:  %g = hlo.convolution(%t, %kt) dim_numbers = [f, b]x[o, i]->[f, b] {feature_group_count = 1 : i64, batch_group_count = 1 : i64} : (tensor<3x2xi32>, tensor<4x3xi32>) -> tensor<4x2xi32>
// CHECK-NEXT:  func.return
// CHECK-NEXT:  }
