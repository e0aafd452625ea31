func.func @f() -> tensor<1x1x4xi8> {
  // expected-error @+1 {{integer value 1024 is out of range for element type i8 (valid range [-128, 255])}}
  %0 = hlo.constant dense<1024> : tensor<1x1x4xi8>
  return %0 : tensor<1x1x4xi8>
}
