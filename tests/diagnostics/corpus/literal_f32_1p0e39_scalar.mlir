func.func @f() -> tensor<f32> {
  // expected-error @+1 {{float literal is out of range for element type f32}}
  %0 = hlo.constant dense<1.0e39> : tensor<f32>
  return %0 : tensor<f32>
}
