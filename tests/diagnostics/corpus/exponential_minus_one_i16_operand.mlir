func.func @f(%a: tensor<2xi16>) -> tensor<2xi16> {
  // expected-error @+1 {{'hlo.exponential_minus_one' op operand must have a floating-point or complex element type, got tensor<2xi16>}}
  %0 = hlo.exponential_minus_one %a : (tensor<2xi16>) -> tensor<2xi16>
  return %0 : tensor<2xi16>
}
