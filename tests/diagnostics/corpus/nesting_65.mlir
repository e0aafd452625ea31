func.func @f() -> tensor<1xf32> {
  // expected-error @+1 {{dense literal nested deeper than 64 levels}}
  %0 = hlo.constant dense<[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1.0]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]> : tensor<1xf32>
  return %0 : tensor<1xf32>
}
