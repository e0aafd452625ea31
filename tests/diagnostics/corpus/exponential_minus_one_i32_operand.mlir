func.func @f(%a: tensor<2xi32>) -> tensor<2xi32> {
  // expected-error @+1 {{'hlo.exponential_minus_one' op operand must have a floating-point or complex element type, got tensor<2xi32>}}
  %0 = hlo.exponential_minus_one %a : (tensor<2xi32>) -> tensor<2xi32>
  return %0 : tensor<2xi32>
}
