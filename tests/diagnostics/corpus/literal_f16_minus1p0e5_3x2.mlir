func.func @f() -> tensor<3x2xf16> {
  // expected-error @+1 {{float literal is out of range for element type f16}}
  %0 = hlo.constant dense<-1.0e5> : tensor<3x2xf16>
  return %0 : tensor<3x2xf16>
}
