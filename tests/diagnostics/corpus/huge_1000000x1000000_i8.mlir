func.func @f() -> tensor<1000000x1000000xi8> {
  // expected-error @+1 {{bytes of memory available}}
  %0 = hlo.constant dense<1> : tensor<1000000x1000000xi8>
  return %0 : tensor<1000000x1000000xi8>
}
