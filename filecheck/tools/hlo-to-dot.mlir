// RUN: minixla-opt %s -p hlo-optimize | minixla-translate --hlo-to-dot - | filecheck %s

// CHECK:      digraph "main" {
// CHECK:        [[X:n[0-9]+]] [label="parameter(0)\ntensor<2x3xf32>", shape="ellipse"];
// CHECK:        subgraph cluster_fusion_0 {
// CHECK-NEXT:     label="fusion 0 (loop)";
// CHECK-NEXT:     [[P:n[0-9]+]] [label="parameter(0)\ntensor<2x3xf32>", shape="ellipse"];
// CHECK-NEXT:     [[X]] -> [[P]]
// CHECK-NEXT:     [[E:n[0-9]+]] [label="hlo.exponential\ntensor<2x3xf32>"];
// CHECK-NEXT:     [[P]] -> [[E]]
// CHECK-NEXT:     [[M:n[0-9]+]] [label="hlo.multiply\ntensor<2x3xf32>"];
// CHECK-NEXT:     [[E]] -> [[M]] {{.*}}label="0"
// CHECK-NEXT:     [[P]] -> [[M]] {{.*}}label="1"
// CHECK-NEXT:     [[F:n[0-9]+]] [label="hlo.fusion kind=loop\ntensor<2x3xf32>"{{.*}}shape="box3d"];
// CHECK-NEXT:     [[M]] -> [[F]]
// CHECK-NEXT:   }
// CHECK-NEXT:   [[R:n[0-9]+]] [label="func.return"
// CHECK-NEXT:   [[F]] -> [[R]]
// CHECK-NEXT: }
func.func @main(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = hlo.exponential %x : tensor<2x3xf32>
  %1 = hlo.multiply %0, %x : tensor<2x3xf32>
  func.return %1 : tensor<2x3xf32>
}
