func.func @f() -> tensor<4294967296x4294967296xi8> {
  // expected-error @+1 {{bytes of memory available}}
  %0 = hlo.constant dense<1> : tensor<4294967296x4294967296xi8>
  return %0 : tensor<4294967296x4294967296xi8>
}
