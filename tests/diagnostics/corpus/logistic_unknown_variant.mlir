func.func @f(%a: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{custom op 'hlo.logistic_v2' is unknown}}
  %0 = hlo.logistic_v2 %a : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
