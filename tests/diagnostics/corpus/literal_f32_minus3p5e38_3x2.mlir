func.func @f() -> tensor<3x2xf32> {
  // expected-error @+1 {{float literal is out of range for element type f32}}
  %0 = hlo.constant dense<-3.5e38> : tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}
