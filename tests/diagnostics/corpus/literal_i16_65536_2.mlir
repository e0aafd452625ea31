func.func @f() -> tensor<2xi16> {
  // expected-error @+1 {{integer value 65536 is out of range for element type i16 (valid range [-32768, 65535])}}
  %0 = hlo.constant dense<65536> : tensor<2xi16>
  return %0 : tensor<2xi16>
}
