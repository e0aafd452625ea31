func.func @f() -> tensor<1x1x4xf16> {
  // expected-error @+1 {{float literal is out of range for element type f16}}
  %0 = hlo.constant dense<1.0e10> : tensor<1x1x4xf16>
  return %0 : tensor<1x1x4xf16>
}
