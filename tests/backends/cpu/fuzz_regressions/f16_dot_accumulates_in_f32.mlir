// minixla fuzz seed 2026006752: a 9-term f16 dot product summed in f16 on the CPU differed by an f16 ulp
// from the interpreter (numpy sums half floats in f32); 16-bit float contractions now accumulate in f32.
builtin.module {
  func.func @main(%0: tensor<9x2xf16>, %1: tensor<11x9xf16>) -> tensor<11x2xf16> {
    %2 = hlo.dot_general %1, %0, contracting_dims = [1] x [0] : (tensor<11x9xf16>, tensor<9x2xf16>) -> tensor<11x2xf16>
    func.return %2 : tensor<11x2xf16>
  }
}
