func.func @f(%a: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{custom op 'hlo.gather_nd' is unknown}}
  %0 = hlo.gather_nd %a : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
