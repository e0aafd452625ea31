// RUN: minixla-opt %s | filecheck %s

func.func @get_tuple_element(%t: tuple<tensor<2xf32>, tuple<tensor<i64>>>) -> tensor<i64> {
  %a = hlo.get_tuple_element %t[0] : (tuple<tensor<2xf32>, tuple<tensor<i64>>>) -> tensor<2xf32>
  %i = hlo.get_tuple_element %t[1] : (tuple<tensor<2xf32>, tuple<tensor<i64>>>) -> tuple<tensor<i64>>
  %b = "hlo.get_tuple_element"(%i) <{index = 0 : i32}> : (tuple<tensor<i64>>) -> tensor<i64>
  func.return %b : tensor<i64>
}
// CHECK-LABEL: func.func @get_tuple_element(%t: tuple<tensor<2xf32>, tuple<tensor<i64>>>) -> tensor<i64> {
// CHECK-NEXT:   %a = hlo.get_tuple_element %t[0] : (tuple<tensor<2xf32>, tuple<tensor<i64>>>) -> tensor<2xf32>
// CHECK-NEXT:   %i = hlo.get_tuple_element %t[1] : (tuple<tensor<2xf32>, tuple<tensor<i64>>>) -> tuple<tensor<i64>>
// CHECK-NEXT:   %b = hlo.get_tuple_element %i[0] : (tuple<tensor<i64>>) -> tensor<i64>
// CHECK-NEXT:   func.return %b : tensor<i64>
// CHECK-NEXT: }
