func.func @f() -> tensor<3x2xi32> {
  // expected-error @+1 {{integer value -8589934599 is out of range for element type i32 (valid range [-2147483648, 4294967295])}}
  %0 = hlo.constant dense<-8589934599> : tensor<3x2xi32>
  return %0 : tensor<3x2xi32>
}
