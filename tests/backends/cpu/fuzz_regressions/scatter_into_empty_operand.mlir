// minixla fuzz seed 1000036: the interpreter's scatter raised numpy's "cannot unravel if shape has zero entries"
// for an operand with a 0-sized dimension (every update is out of bounds there: the result is the empty operand).
builtin.module {
  func.func @main(%0: tensor<4x0xi64>, %1: tensor<3x4xi64>, %2: tensor<3x2xi32>) -> tensor<4x0xi64> {
    %3 = "hlo.scatter"(%0, %2, %1) <{scatter_dimension_numbers = #hlo.scatter<update_window_dims = [1], inserted_window_dims = [1], scatter_dims_to_operand_dims = [1, 0], index_vector_dim = 1>}> ({
    ^bb0(%4: tensor<i64>, %5: tensor<i64>):
      %6 = hlo.minimum %4, %5 : tensor<i64>
      hlo.return %6 : tensor<i64>
    }) : (tensor<4x0xi64>, tensor<3x2xi32>, tensor<3x4xi64>) -> tensor<4x0xi64>
    func.return %3 : tensor<4x0xi64>
  }
}
