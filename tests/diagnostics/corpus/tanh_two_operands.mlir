func.func @f(%a: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{'hlo.tanh' op Expected 1 operand, but got 2}}
  %0 = hlo.tanh %a, %a : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
