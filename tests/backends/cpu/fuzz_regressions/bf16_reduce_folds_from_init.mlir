// minixla fuzz seed 4001020293: output #0: interpreter [-2.21875 -5.28125 0.6640625 ...] vs cpu [-2.21875 -5.28125 0.640625 ...]
// (a bf16 reduce rounds after every add, so the order shows: the interpreter added the init value last,
// the CPU first; the interpreter now folds from the init value like StableHLO's reference and our CPU code)
builtin.module {
  func.func @main(%0: tensor<3x5x5xbf16>, %1: tensor<bf16>) -> tensor<3x5xf64> {
    %2 = hlo.reduce(%0 init: %1) applies hlo.add across dimensions = [1] : (tensor<3x5x5xbf16>, tensor<bf16>) -> tensor<3x5xbf16>
    %3 = hlo.convert %2 : (tensor<3x5xbf16>) -> tensor<3x5xf64>
    func.return %3 : tensor<3x5xf64>
  }
}
