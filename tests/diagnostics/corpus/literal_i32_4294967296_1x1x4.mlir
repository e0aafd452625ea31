func.func @f() -> tensor<1x1x4xi32> {
  // expected-error @+1 {{integer value 4294967296 is out of range for element type i32 (valid range [-2147483648, 4294967295])}}
  %0 = hlo.constant dense<4294967296> : tensor<1x1x4xi32>
  return %0 : tensor<1x1x4xi32>
}
