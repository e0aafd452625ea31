func.func @f(%a: tensor<2xi32>) -> tensor<2xi32> {
  // expected-error @+1 {{'hlo.and' op Expected 2 operands, but got 1}}
  %0 = hlo.and %a : (tensor<2xi32>) -> tensor<2xi32>
  return %0 : tensor<2xi32>
}
