// minixla fuzz seed 5000151 (shrunk by hand): a zero-size select result is an empty tensor whose
// buffer the bufferizer allocated lazily at its first use -- inside a case branch -- and the while
// loop after the case then read that buffer out of scope ("Instruction does not dominate all uses").
func.func @main(%0: tensor<0x0xf32>) -> tensor<0x0xf32> {
  %1 = hlo.compare LE, %0, %0 : (tensor<0x0xf32>, tensor<0x0xf32>) -> tensor<0x0xi1>
  %2 = hlo.select %1, %0, %0 : (tensor<0x0xi1>, tensor<0x0xf32>, tensor<0x0xf32>) -> tensor<0x0xf32>
  %3 = hlo.constant dense<1> : tensor<i32>
  %4 = "hlo.case"(%3) ({
    hlo.return %2 : tensor<0x0xf32>
  }, {
    hlo.return %2 : tensor<0x0xf32>
  }) : (tensor<i32>) -> tensor<0x0xf32>
  %5 = hlo.constant dense<0> : tensor<i32>
  %6, %7 = hlo.while(%8 = %5, %9 = %2) : tensor<i32>, tensor<0x0xf32> cond {
    %10 = hlo.constant dense<2> : tensor<i32>
    %11 = hlo.compare LT, %8, %10 : (tensor<i32>, tensor<i32>) -> tensor<i1>
    hlo.return %11 : tensor<i1>
  } do {
    %12 = hlo.constant dense<1> : tensor<i32>
    %13 = hlo.add %8, %12 : tensor<i32>
    hlo.return %13, %9 : tensor<i32>, tensor<0x0xf32>
  }
  %14 = hlo.add %4, %7 : tensor<0x0xf32>
  func.return %14 : tensor<0x0xf32>
}
