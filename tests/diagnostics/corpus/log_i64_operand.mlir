func.func @f(%a: tensor<2xi64>) -> tensor<2xi64> {
  // expected-error @+1 {{'hlo.log' op operand must have a floating-point or complex element type, got tensor<2xi64>}}
  %0 = hlo.log %a : (tensor<2xi64>) -> tensor<2xi64>
  return %0 : tensor<2xi64>
}
