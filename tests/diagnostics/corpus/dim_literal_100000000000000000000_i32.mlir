func.func @f() {
  // expected-error @+1 {{dimension 100000000000000000000 is larger than the int64 maximum}}
  %0 = hlo.constant dense<1> : tensor<3x100000000000000000000xi32>
  return
}
