// expected-error @+1 {{dimension 18446744073709551616 is larger than the int64 maximum}}
func.func @f() -> tensor<2x18446744073709551616xi32> {
}
