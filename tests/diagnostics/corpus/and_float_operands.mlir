func.func @f(%a: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{'hlo.and' op operands must have a boolean or integer element type, got tensor<2xf32>}}
  %0 = hlo.and %a, %a : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
