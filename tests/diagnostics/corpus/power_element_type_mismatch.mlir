func.func @f(%a: tensor<2xf32>, %b: tensor<2xi32>) -> tensor<2xf32> {
  // expected-error @+1 {{'hlo.power' op operand types tensor<2xf32>, tensor<2xi32> and result type tensor<2xf32> must be equal}}
  %0 = hlo.power %a, %b : (tensor<2xf32>, tensor<2xi32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
