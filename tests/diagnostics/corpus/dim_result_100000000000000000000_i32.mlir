// expected-error @+1 {{dimension 100000000000000000000 is larger than the int64 maximum}}
func.func @f() -> tensor<2x100000000000000000000xi32> {
}
