func.func @f() -> tensor<2xi32> {
  // expected-error @+1 {{integer value -2147483649 is out of range for element type i32 (valid range [-2147483648, 4294967295])}}
  %0 = hlo.constant dense<-2147483649> : tensor<2xi32>
  return %0 : tensor<2xi32>
}
