func.func @f(%a: tensor<2xi32>) -> tensor<2xi32> {
  // expected-error @+1 {{'hlo.exponential' op operand must have a floating-point or complex element type, got tensor<2xi32>}}
  %0 = hlo.exponential %a : (tensor<2xi32>) -> tensor<2xi32>
  return %0 : tensor<2xi32>
}
