// RUN: minixla-opt --list-passes | filecheck %s
// RUN: minixla-opt --list-dialects | filecheck %s --check-prefix=DIALECTS

// CHECK:      plugin passes:
// CHECK-NEXT:   convert-toy-to-hlo {{.*}}[minixla-toy] Lower toy.scale and toy.clamp
// CHECK-NEXT:   toy-fold-scales {{.*}}[minixla-toy] Fold chains of toy.scale

// DIALECTS:      plugin dialects:
// DIALECTS-NEXT:   toy
