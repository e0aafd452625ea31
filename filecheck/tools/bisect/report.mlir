// A correct pipeline: every stage an evaluator covers matches the input (exit 0);
// the stages none covers say why.
// RUN: minixla-opt %s -p hlo-optimize,hlo-to-cpu --bisect --seed 3 | filecheck %s

// CHECK:      // bisect @main: 1 input(s), {{[0-9]+}} pass(es)
// CHECK:      (input) {{ *}}interpreter {{ *}}0 {{ *}}0 {{ *}}reference
// CHECK:      hlo-fusion {{ *}}interpreter {{.*}} ok
// CHECK:      convert-hlo-to-linalg {{ *}}loop-ir {{.*}} ok
// CHECK:      bufferize {{ *}}loop-ir {{.*}} ok
// CHECK:      lower-linalg-to-loops {{ *}}loop-ir {{.*}} ok
// CHECK:      lower-scf-to-cf {{ *}}loop-ir {{.*}} ok
// CHECK:      convert-memref-to-llvm {{ *}}loop-ir {{.*}} skipped: loop-IR evaluator lacks llvm
// CHECK:      convert-func-to-llvm {{ *}}cpu-jit {{.*}} skipped: partially lowered (unrealized casts)
// CHECK:      reconcile-unrealized-casts {{ *}}cpu-jit {{.*}} ok
// CHECK:      bisect: all evaluated stages match the input
func.func @main(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = hlo.exponential %x : tensor<2x3xf32>
  %1 = hlo.multiply %0, %x : tensor<2x3xf32>
  func.return %1 : tensor<2x3xf32>
}

// RUN: not minixla-opt %s -p cse --bisect --inputs %s 2>&1 | filecheck %s --check-prefix=BADINPUT
// BADINPUT: error: {{.*}}report.mlir: not an .npz archive

// minixla-run shares the implementation
// RUN: minixla-run %s --check-each-pass -p hlo-to-cpu | filecheck %s --check-prefix=RUNTOOL
// RUNTOOL: // bisect @main: 1 input(s), {{[0-9]+}} pass(es)
// RUNTOOL: reconcile-unrealized-casts {{ *}}cpu-jit {{.*}} ok
// RUNTOOL: bisect: all evaluated stages match the input
