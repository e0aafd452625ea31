func.func @f(%a: tensor<2xi16>) -> tensor<2xi16> {
  // expected-error @+1 {{'hlo.rsqrt' op operand must have a floating-point or complex element type, got tensor<2xi16>}}
  %0 = hlo.rsqrt %a : (tensor<2xi16>) -> tensor<2xi16>
  return %0 : tensor<2xi16>
}
