func.func @f() -> tensor<2xf32> {
  // expected-error @+1 {{float literal is out of range for element type f32}}
  %0 = hlo.constant dense<1.0e39> : tensor<2xf32>
  return %0 : tensor<2xf32>
}
