func.func @f() -> tensor<100000x100000x100xf64> {
  // expected-error @+1 {{bytes of memory available}}
  %0 = hlo.constant dense<1> : tensor<100000x100000x100xf64>
  return %0 : tensor<100000x100000x100xf64>
}
