// expected-error @+1 {{dimension 100000000000000000000 is larger than the int64 maximum}}
func.func @f(%a: tensor<100000000000000000000xf32>) -> tensor<1xf32> {
}
