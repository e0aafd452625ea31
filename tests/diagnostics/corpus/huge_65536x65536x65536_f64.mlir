func.func @f() -> tensor<65536x65536x65536xf64> {
  // expected-error @+1 {{bytes of memory available}}
  %0 = hlo.constant dense<1> : tensor<65536x65536x65536xf64>
  return %0 : tensor<65536x65536x65536xf64>
}
