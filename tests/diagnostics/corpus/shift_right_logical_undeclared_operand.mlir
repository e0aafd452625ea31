func.func @f(%a: tensor<2xi32>) -> tensor<2xi32> {
  // expected-error @+1 {{use of undeclared SSA value name '%missing'}}
  %0 = hlo.shift_right_logical %a, %missing : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi32>
  return %0 : tensor<2xi32>
}
