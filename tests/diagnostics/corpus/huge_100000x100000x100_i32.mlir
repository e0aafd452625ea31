func.func @f() -> tensor<100000x100000x100xi32> {
  // expected-error @+1 {{bytes of memory available}}
  %0 = hlo.constant dense<1> : tensor<100000x100000x100xi32>
  return %0 : tensor<100000x100000x100xi32>
}
