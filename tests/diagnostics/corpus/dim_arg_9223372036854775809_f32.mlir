// expected-error @+1 {{dimension 9223372036854775809 is larger than the int64 maximum}}
func.func @f(%a: tensor<9223372036854775809xf32>) -> tensor<1xf32> {
}
