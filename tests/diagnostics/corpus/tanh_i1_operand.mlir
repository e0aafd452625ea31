func.func @f(%a: tensor<2xi1>) -> tensor<2xi1> {
  // expected-error @+1 {{'hlo.tanh' op operand must have a floating-point or complex element type, got tensor<2xi1>}}
  %0 = hlo.tanh %a : (tensor<2xi1>) -> tensor<2xi1>
  return %0 : tensor<2xi1>
}
