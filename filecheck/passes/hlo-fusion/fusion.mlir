// RUN: minixla-opt %s --split-input-file -p hlo-fusion | filecheck %s

// Loop fusion: an elementwise chain with a broadcast operand becomes one fusion.
// CHECK-LABEL: func.func @loop
// CHECK-NEXT:    %[[F:.*]] = hlo.fusion kind = loop (%[[V:.*]] = %v, %[[X:.*]] = %x) : (tensor<8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32> {
// CHECK-NEXT:      hlo.broadcast_in_dim %[[V]], dims = [1]
// CHECK-NEXT:      hlo.add
// CHECK-NEXT:      hlo.tanh
// CHECK-NEXT:      hlo.return
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return %[[F]]
func.func @loop(%x: tensor<4x8xf32>, %v: tensor<8xf32>) -> tensor<4x8xf32> {
  %b = hlo.broadcast_in_dim %v, dims = [1] : (tensor<8xf32>) -> tensor<4x8xf32>
  %a = hlo.add %x, %b : tensor<4x8xf32>
  %t = hlo.tanh %a : tensor<4x8xf32>
  func.return %t : tensor<4x8xf32>
}

// -----

// Cost rule: an expensive producer with two consumers is never duplicated;
// the consumers, siblings reading it, become one multi-output fusion, into
// which the producer then moves (absorb: its only reader, computing it once
// per element).
// CHECK-LABEL: func.func @no_duplication
// CHECK-NEXT:    %[[A:.*]], %[[M:.*]] = hlo.fusion kind = multi_output (%[[X:.*]] = %x) : (tensor<16xf32>) -> (tensor<16xf32>, tensor<16xf32>) {
// CHECK-NEXT:      hlo.exponential %[[X]]
// CHECK-NOT:       hlo.exponential
// CHECK:           hlo.return
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return %[[A]], %[[M]]
func.func @no_duplication(%x: tensor<16xf32>) -> (tensor<16xf32>, tensor<16xf32>) {
  %e = hlo.exponential %x : tensor<16xf32>
  %c = hlo.constant dense<2.0> : tensor<16xf32>
  %a = hlo.add %e, %c : tensor<16xf32>
  %m = hlo.multiply %e, %c : tensor<16xf32>
  func.return %a, %m : tensor<16xf32>, tensor<16xf32>
}

// -----

// Cheap producers used elsewhere are duplicated into the fusion (here the
// other user comes before the fusion, so it cannot read a fusion result).
// CHECK-LABEL: func.func @cheap_duplication
// CHECK:         %[[N:.*]] = hlo.negate %x
// CHECK:         %[[O:.*]] = hlo.optimization_barrier %[[N]]
// CHECK:         hlo.fusion kind = loop
// CHECK-NEXT:      hlo.negate
// CHECK-NEXT:      hlo.multiply
// CHECK-NEXT:      hlo.abs
// CHECK:         func.return %[[O]]
func.func @cheap_duplication(%x: tensor<16xf32>, %y: tensor<16xf32>) -> (tensor<16xf32>, tensor<16xf32>) {
  %n = hlo.negate %x : tensor<16xf32>
  %o = hlo.optimization_barrier %n : tensor<16xf32>
  %m = hlo.multiply %n, %y : tensor<16xf32>
  %a = hlo.abs %m : tensor<16xf32>
  func.return %o, %a : tensor<16xf32>, tensor<16xf32>
}

// -----

// A duplicated producer whose other users all come after the fusion becomes
// an extra result of it instead of its own loop nest.
// CHECK-LABEL: func.func @duplicate_becomes_root
// CHECK-NOT:     hlo.negate %x
// CHECK:         %{{.*}}, %[[N:.*]] = hlo.fusion kind = multi_output
// CHECK-NEXT:      hlo.negate
// CHECK-NEXT:      hlo.multiply
// CHECK-NEXT:      hlo.abs
// CHECK:         func.return %[[N]]
func.func @duplicate_becomes_root(%x: tensor<16xf32>, %y: tensor<16xf32>) -> (tensor<16xf32>, tensor<16xf32>) {
  %n = hlo.negate %x : tensor<16xf32>
  %m = hlo.multiply %n, %y : tensor<16xf32>
  %a = hlo.abs %m : tensor<16xf32>
  %o = hlo.optimization_barrier %a : tensor<16xf32>
  func.return %n, %o : tensor<16xf32>, tensor<16xf32>
}

// -----

// Multi-output reduction fusion: two reductions of the same input and
// dimensions (sum and max over rows) read x once.
// CHECK-LABEL: func.func @siblings
// CHECK-NEXT:    %{{.*}}, %{{.*}} = hlo.fusion kind = multi_output (%{{.*}} = %x) : (tensor<4x8xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
// CHECK-DAG:       hlo.reduce({{.*}}) applies hlo.add
// CHECK-DAG:       hlo.reduce({{.*}}) applies hlo.maximum
// CHECK:           hlo.return
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return
func.func @siblings(%x: tensor<4x8xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %z = hlo.constant dense<0.0> : tensor<f32>
  %s = hlo.reduce(%x init: %z) applies hlo.add across dimensions = [1] : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
  %ninf = hlo.constant dense<0xFF800000> : tensor<f32>
  %m = hlo.reduce(%x init: %ninf) applies hlo.maximum across dimensions = [1] : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
  func.return %s, %m : tensor<4xf32>, tensor<4xf32>
}

// -----

// Softmax's x - broadcast(max(x)): the reduce result is broadcast back to the
// input shape, so the reduction and the loop stay two fusions.
// CHECK-LABEL: func.func @softmax_shift
// CHECK:         %[[R:.*]] = hlo.fusion kind = input
// CHECK:           hlo.reduce
// CHECK:         hlo.fusion kind = loop ({{.*}} = %[[R]], {{.*}} = %x)
// CHECK-NEXT:      hlo.broadcast_in_dim
// CHECK-NEXT:      hlo.subtract
func.func @softmax_shift(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %ninf = hlo.constant dense<0xFF800000> : tensor<f32>
  %m = hlo.reduce(%x init: %ninf) applies hlo.maximum across dimensions = [1] : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
  %b = hlo.broadcast_in_dim %m, dims = [0] : (tensor<4xf32>) -> tensor<4x8xf32>
  %d = hlo.subtract %x, %b : tensor<4x8xf32>
  func.return %d : tensor<4x8xf32>
}

// -----

// dot_general is not fusible: its elementwise consumers fuse around it.
// CHECK-LABEL: func.func @around_dot
// CHECK:         hlo.dot_general
// CHECK:         hlo.fusion kind = loop
// CHECK-NEXT:      hlo.add
// CHECK:           hlo.maximum
func.func @around_dot(%a: tensor<4x8xf32>, %b: tensor<8x4xf32>, %bias: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %d = hlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<4x8xf32>, tensor<8x4xf32>) -> tensor<4x4xf32>
  %s = hlo.add %d, %bias : tensor<4x4xf32>
  %z = hlo.constant dense<0.0> : tensor<4x4xf32>
  %r = hlo.maximum %s, %z : tensor<4x4xf32>
  func.return %r : tensor<4x4xf32>
}
