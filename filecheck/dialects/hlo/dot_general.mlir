// RUN: minixla-opt %s --print-op-generic | minixla-opt | filecheck %s

func.func @dot_general(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>, %x: tensor<5x2x3xbf16>, %y: tensor<5x3x4xbf16>, %v: tensor<3xi8>, %w: tensor<3xi8>) {
  %mm = hlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  %bmm = hlo.dot_general %x, %y, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<5x2x3xbf16>, tensor<5x3x4xbf16>) -> tensor<5x2x4xbf16>
  %prec = hlo.dot_general %a, %b, contracting_dims = [1] x [0], precision = [DEFAULT, HIGHEST] : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  %outer = hlo.dot_general %v, %w, contracting_dims = [] x [] : (tensor<3xi8>, tensor<3xi8>) -> tensor<3x3xi8>
  %inner = hlo.dot_general %v, %w, contracting_dims = [0] x [0], precision = [HIGH, HIGH] {tag} : (tensor<3xi8>, tensor<3xi8>) -> tensor<i8>
  %none = hlo.dot_general %a, %b, contracting_dims = [1] x [0], precision = [] : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  %gen = "hlo.dot_general"(%x, %y) <{dot_dimension_numbers = #hlo.dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [0], lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1]>, precision_config = [#hlo<precision DEFAULT>, #hlo<precision DEFAULT>]}> : (tensor<5x2x3xbf16>, tensor<5x3x4xbf16>) -> tensor<5x2x4xbf16>
  func.return
}
// CHECK-LABEL: func.func @dot_general(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>, %x: tensor<5x2x3xbf16>, %y: tensor<5x3x4xbf16>, %v: tensor<3xi8>, %w: tensor<3xi8>) {
// CHECK-NEXT:  %mm = hlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
// CHECK-NEXT:  %bmm = hlo.dot_general %x, %y, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<5x2x3xbf16>, tensor<5x3x4xbf16>) -> tensor<5x2x4xbf16>
// CHECK-NEXT:  %prec = hlo.dot_general %a, %b, contracting_dims = [1] x [0], precision = [DEFAULT, HIGHEST] : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
// CHECK-NEXT:  %outer = hlo.dot_general %v, %w, contracting_dims = [] x [] : (tensor<3xi8>, tensor<3xi8>) -> tensor<3x3xi8>
// CHECK-NEXT:  %inner = hlo.dot_general %v, %w, contracting_dims = [0] x [0], precision = [HIGH, HIGH] {tag} : (tensor<3xi8>, tensor<3xi8>) -> tensor<i8>
// CHECK-NEXT:  %none = hlo.dot_general %a, %b, contracting_dims = [1] x [0], precision = [] : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
// CHECK-NEXT:  %gen = hlo.dot_general %x, %y, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<5x2x3xbf16>, tensor<5x3x4xbf16>) -> tensor<5x2x4xbf16>
// CHECK-NEXT:  func.return
// CHECK-NEXT:  }

// The `algorithm` precision contract round-trips in pretty and generic form.
func.func @dot_general_algorithm(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>) -> tensor<2x4xf32> {
  %0 = hlo.dot_general %a, %b, contracting_dims = [1] x [0], algorithm = <lhs_precision_type = tf32, rhs_precision_type = tf32, accumulation_type = f32, lhs_component_count = 1, rhs_component_count = 1, num_primitive_operations = 1, allow_imprecise_accumulation = false> : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  func.return %0 : tensor<2x4xf32>
}
// CHECK-LABEL: func.func @dot_general_algorithm
// CHECK-NEXT:  %0 = hlo.dot_general %a, %b, contracting_dims = [1] x [0], algorithm = <lhs_precision_type = tf32, rhs_precision_type = tf32, accumulation_type = f32, lhs_component_count = 1, rhs_component_count = 1, num_primitive_operations = 1, allow_imprecise_accumulation = false> : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
