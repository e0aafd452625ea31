// RUN: minixla-opt %s -p stablehlo-legalize-to-hlo | filecheck %s
// RUN: minixla-opt %s -p stablehlo-legalize-to-hlo,hlo-legalize-to-stablehlo | filecheck %s --check-prefix=BACK
// RUN: minixla-opt %s -p stablehlo-legalize-to-hlo --print-op-generic | filecheck %s --check-prefix=GEN

// Ops, regions and attributes (also inside arrays) move to the twin dialect 1:1.

// CHECK-LABEL: func.func @reduce_max
// CHECK:         hlo.reduce(%x init: %init) applies hlo.maximum across dimensions = [1]
// CHECK:         hlo.compare GT
// CHECK-NOT:     stablehlo.
// BACK-LABEL:  func.func @reduce_max
// BACK:          stablehlo.reduce
// BACK:          stablehlo.compare GT
// BACK-NOT:      hlo.
func.func @reduce_max(%x: tensor<2x3xf32>) -> tensor<2xi1> {
  %init = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %0 = stablehlo.reduce(%x init: %init) applies stablehlo.maximum across dimensions = [1] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>
  %1 = stablehlo.compare GT, %0, %0 : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xi1>
  func.return %1 : tensor<2xi1>
}

// CHECK-LABEL: func.func @dot
// CHECK:         hlo.dot_general %a, %b, contracting_dims = [1] x [0], precision = [DEFAULT, HIGHEST]
// GEN:           "hlo.dot_general"{{.*}}#hlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>{{.*}}[#hlo<precision DEFAULT>, #hlo<precision HIGHEST>]
// GEN-NOT:       stablehlo
// BACK-LABEL:  func.func @dot
// BACK:          stablehlo.dot_general %a, %b, contracting_dims = [1] x [0], precision = [DEFAULT, HIGHEST]
func.func @dot(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>) -> tensor<2x4xf32> {
  %0 = "stablehlo.dot_general"(%a, %b) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision HIGHEST>]} : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  func.return %0 : tensor<2x4xf32>
}
