func.func @f(%a: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{'hlo.rsqrt' op Expected 1 operand, but got 2}}
  %0 = hlo.rsqrt %a, %a : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
