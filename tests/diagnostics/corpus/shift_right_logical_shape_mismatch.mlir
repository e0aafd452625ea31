func.func @f(%a: tensor<2xi32>, %b: tensor<3xi32>) -> tensor<2xi32> {
  // expected-error @+1 {{'hlo.shift_right_logical' op operand types tensor<2xi32>, tensor<3xi32> and result type tensor<2xi32> must be equal}}
  %0 = hlo.shift_right_logical %a, %b : (tensor<2xi32>, tensor<3xi32>) -> tensor<2xi32>
  return %0 : tensor<2xi32>
}
