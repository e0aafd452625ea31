func.func @f(%a: tensor<2xi8>) -> tensor<2xi8> {
  // expected-error @+1 {{'hlo.rsqrt' op operand must have a floating-point or complex element type, got tensor<2xi8>}}
  %0 = hlo.rsqrt %a : (tensor<2xi8>) -> tensor<2xi8>
  return %0 : tensor<2xi8>
}
