func.func @f() -> tensor<3x2xi8> {
  // expected-error @+1 {{integer value -519 is out of range for element type i8 (valid range [-128, 255])}}
  %0 = hlo.constant dense<-519> : tensor<3x2xi8>
  return %0 : tensor<3x2xi8>
}
