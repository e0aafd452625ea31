func.func @f() {
  // expected-error @+1 {{dimension 9223372036854775809 is larger than the int64 maximum}}
  %0 = hlo.constant dense<1> : tensor<3x9223372036854775809xi32>
  return
}
