// expected-error @+1 {{dimension 18446744073709551616 is larger than the int64 maximum}}
func.func @f(%a: tensor<18446744073709551616xf32>) -> tensor<1xf32> {
}
