func.func @f() {
  // expected-error @+1 {{dimension 18446744073709551616 is larger than the int64 maximum}}
  %0 = hlo.constant dense<1> : tensor<3x18446744073709551616xi32>
  return
}
