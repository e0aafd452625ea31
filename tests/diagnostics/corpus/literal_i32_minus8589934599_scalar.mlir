func.func @f() -> tensor<i32> {
  // expected-error @+1 {{integer value -8589934599 is out of range for element type i32 (valid range [-2147483648, 4294967295])}}
  %0 = hlo.constant dense<-8589934599> : tensor<i32>
  return %0 : tensor<i32>
}
