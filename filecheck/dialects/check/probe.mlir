// RUN: minixla-opt %s --print-op-generic | minixla-opt | filecheck %s
// RUN: minixla-run %s | filecheck %s --check-prefix=OUT
// RUN: minixla-run %s --backend cpu | filecheck %s --check-prefix=OUT

func.func @probe() {
  %a = hlo.constant dense<[1.5, -0.0]> : tensor<2xf32>
  %p = interpreter.probe %a, probe_id = "p/0" : tensor<2xf32>
  %b = hlo.add %p, %p : tensor<2xf32>
  interpreter.print %b : tensor<2xf32>
  check.expect_serialized_eq %a, probe_id = "p/0" : tensor<2xf32>
  check.expect_serialized_eq %a, probe_id = "p/0", iter = 0 {tag} : tensor<2xf32>
  func.return
}
// CHECK-LABEL: func.func @probe() {
// CHECK-NEXT:    %a = hlo.constant dense<[1.500000e+00, -0.000000e+00]> : tensor<2xf32>
// CHECK-NEXT:    %p = interpreter.probe %a, probe_id = "p/0" : tensor<2xf32>
// CHECK-NEXT:    %b = hlo.add %p, %p : tensor<2xf32>
// CHECK-NEXT:    interpreter.print %b : tensor<2xf32>
// CHECK-NEXT:    check.expect_serialized_eq %a, probe_id = "p/0" : tensor<2xf32>
// CHECK-NEXT:    check.expect_serialized_eq %a, probe_id = "p/0", iter = 0 {tag} : tensor<2xf32>

// OUT:      tensor<2xf32> {
// OUT-NEXT:   [3.000000e+00, -0.000000e+00]
// OUT-NEXT: }
// OUT:      PASS probe
