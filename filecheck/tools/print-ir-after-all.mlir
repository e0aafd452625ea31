// RUN: minixla-opt %s -p stablehlo-legalize-to-hlo,canonicalize --mlir-print-ir-after-all 2>&1 >/dev/null | filecheck %s

// CHECK: // -----// IR Dump After StablehloLegalizeToHlo (stablehlo-legalize-to-hlo) //----- //
// CHECK: hlo.add
// CHECK: // -----// IR Dump After CanonicalizePass (canonicalize) //----- //
func.func @f(%x: tensor<f32>) -> tensor<f32> {
  %0 = stablehlo.add %x, %x : tensor<f32>
  func.return %0 : tensor<f32>
}
