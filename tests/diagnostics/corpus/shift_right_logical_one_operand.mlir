func.func @f(%a: tensor<2xi32>) -> tensor<2xi32> {
  // expected-error @+1 {{'hlo.shift_right_logical' op Expected 2 operands, but got 1}}
  %0 = hlo.shift_right_logical %a : (tensor<2xi32>) -> tensor<2xi32>
  return %0 : tensor<2xi32>
}
