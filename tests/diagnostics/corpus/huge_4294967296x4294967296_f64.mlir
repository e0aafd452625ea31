func.func @f() -> tensor<4294967296x4294967296xf64> {
  // expected-error @+1 {{bytes of memory available}}
  %0 = hlo.constant dense<1> : tensor<4294967296x4294967296xf64>
  return %0 : tensor<4294967296x4294967296xf64>
}
