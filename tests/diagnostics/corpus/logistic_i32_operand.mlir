func.func @f(%a: tensor<2xi32>) -> tensor<2xi32> {
  // expected-error @+1 {{'hlo.logistic' op operand must have a floating-point or complex element type, got tensor<2xi32>}}
  %0 = hlo.logistic %a : (tensor<2xi32>) -> tensor<2xi32>
  return %0 : tensor<2xi32>
}
