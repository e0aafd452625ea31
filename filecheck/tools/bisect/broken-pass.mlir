// RUN: not %python %S/Inputs/opt_with_broken_pass.py %s -p canonicalize,test-add-to-subtract,hlo-to-cpu --bisect | filecheck %s

// CHECK:      // bisect @main: 2 input(s), {{[0-9]+}} pass(es)
// CHECK-NEXT: pass {{ *}}evaluator {{ *}}max_abs {{ *}}max_rel {{ *}}status
// CHECK-NEXT: (input) {{ *}}interpreter {{ *}}0 {{ *}}0 {{ *}}reference
// CHECK-NEXT: canonicalize {{ *}}interpreter {{ *}}0 {{ *}}0 {{ *}}ok
// CHECK-NEXT: test-add-to-subtract {{ *}}interpreter {{.*}} MISMATCH
// CHECK:      bufferize {{ *}}loop-ir {{.*}} MISMATCH
// CHECK:      reconcile-unrealized-casts {{ *}}cpu-jit {{.*}} MISMATCH
// CHECK:      bisect: first failing pass: test-add-to-subtract
// CHECK-NOT:  also suspect
func.func @main(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  %0 = hlo.add %x, %y : tensor<4xf32>
  func.return %0 : tensor<4xf32>
}
