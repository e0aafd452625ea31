func.func @f(%a: tensor<2xi64>) -> tensor<2xi64> {
  // expected-error @+1 {{'hlo.logistic' op operand must have a floating-point or complex element type, got tensor<2xi64>}}
  %0 = hlo.logistic %a : (tensor<2xi64>) -> tensor<2xi64>
  return %0 : tensor<2xi64>
}
