// expected-error @+1 {{dimension 1000000000000000000000000000000 is larger than the int64 maximum}}
func.func @f() -> tensor<2x1000000000000000000000000000000xi32> {
}
