func.func @f(%a: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{'hlo.shift_right_arithmetic' op operands must have an integer element type, got tensor<2xf32>}}
  %0 = hlo.shift_right_arithmetic %a, %a : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
