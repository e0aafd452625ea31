func.func @f(%a: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{'hlo.remainder' op Expected 2 operands, but got 1}}
  %0 = hlo.remainder %a : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
