func.func @f() -> tensor<i16> {
  // expected-error @+1 {{integer value -131079 is out of range for element type i16 (valid range [-32768, 65535])}}
  %0 = hlo.constant dense<-131079> : tensor<i16>
  return %0 : tensor<i16>
}
