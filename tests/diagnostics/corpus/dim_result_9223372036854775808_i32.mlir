// expected-error @+1 {{dimension 9223372036854775808 is larger than the int64 maximum}}
func.func @f() -> tensor<2x9223372036854775808xi32> {
}
