func.func @f(%a: tensor<2xi1>) -> tensor<2xi1> {
  // expected-error @+1 {{'hlo.logistic' op operand must have a floating-point or complex element type, got tensor<2xi1>}}
  %0 = hlo.logistic %a : (tensor<2xi1>) -> tensor<2xi1>
  return %0 : tensor<2xi1>
}
