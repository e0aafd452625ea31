// RUN: minixla-opt %s | filecheck %s

func.func @tuple(%a: tensor<2xf32>, %b: tensor<i64>) -> tuple<tensor<2xf32>, tuple<tensor<i64>>> {
  %t0 = hlo.tuple : tuple<>
  %t1 = hlo.tuple %b : tuple<tensor<i64>>
  %t2 = hlo.tuple %a, %t1 {tag = "x"} : tuple<tensor<2xf32>, tuple<tensor<i64>>>
  %t3 = "hlo.tuple"(%a, %b) : (tensor<2xf32>, tensor<i64>) -> tuple<tensor<2xf32>, tensor<i64>>
  func.return %t2 : tuple<tensor<2xf32>, tuple<tensor<i64>>>
}
// CHECK-LABEL: func.func @tuple(%a: tensor<2xf32>, %b: tensor<i64>) -> tuple<tensor<2xf32>, tuple<tensor<i64>>> {
// CHECK-NEXT:   %t0 = hlo.tuple : tuple<>
// CHECK-NEXT:   %t1 = hlo.tuple %b : tuple<tensor<i64>>
// CHECK-NEXT:   %t2 = hlo.tuple %a, %t1 {tag = "x"} : tuple<tensor<2xf32>, tuple<tensor<i64>>>
// CHECK-NEXT:   %t3 = hlo.tuple %a, %b : tuple<tensor<2xf32>, tensor<i64>>
// CHECK-NEXT:   func.return %t2 : tuple<tensor<2xf32>, tuple<tensor<i64>>>
// CHECK-NEXT: }
