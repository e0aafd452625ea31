func.func @f() {
  // expected-error @+1 {{dimension 1000000000000000000000000000000 is larger than the int64 maximum}}
  %0 = hlo.constant dense<1> : tensor<3x1000000000000000000000000000000xf32>
  return
}
