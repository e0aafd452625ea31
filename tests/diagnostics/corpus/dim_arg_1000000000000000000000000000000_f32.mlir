// expected-error @+1 {{dimension 1000000000000000000000000000000 is larger than the int64 maximum}}
func.func @f(%a: tensor<1000000000000000000000000000000xf32>) -> tensor<1xf32> {
}
