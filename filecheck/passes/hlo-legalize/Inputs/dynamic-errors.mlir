func.func @f(%s: tensor<2xi64>) -> tensor<3x4xi32> {
  %i = hlo.dynamic_iota %s, dim = 1 : (tensor<2xi64>) -> tensor<3x4xi32>
  func.return %i : tensor<3x4xi32>
}
// -----
func.func @g(%x: tensor<2x3xf32>) -> tensor<?xf32> {
  %n = hlo.constant dense<6> : tensor<1xi64>
  // a constant shape, but the result type keeps its ? dimension
  %r = hlo.dynamic_reshape %x, %n : (tensor<2x3xf32>, tensor<1xi64>) -> tensor<?xf32>
  func.return %r : tensor<?xf32>
}
// -----
func.func @h(%t: tuple<tensor<i32>>) -> tensor<i32> {
  %e = hlo.get_tuple_element %t[0] : (tuple<tensor<i32>>) -> tensor<i32>
  func.return %e : tensor<i32>
}
// -----
func.func @k(%x: tensor<?xf32>) -> tensor<i32> {
  %n = hlo.get_dimension_size %x, dim = 0 : (tensor<?xf32>) -> tensor<i32>
  func.return %n : tensor<i32>
}
