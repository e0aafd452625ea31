func.func @f(%a: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{use of undeclared SSA value name '%missing'}}
  %0 = hlo.log_plus_one %missing : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
