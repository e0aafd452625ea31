func.func @f(%a: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{'hlo.divide' op Expected 2 operands, but got 1}}
  %0 = hlo.divide %a : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
