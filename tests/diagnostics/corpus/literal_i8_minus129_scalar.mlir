func.func @f() -> tensor<i8> {
  // expected-error @+1 {{integer value -129 is out of range for element type i8 (valid range [-128, 255])}}
  %0 = hlo.constant dense<-129> : tensor<i8>
  return %0 : tensor<i8>
}
