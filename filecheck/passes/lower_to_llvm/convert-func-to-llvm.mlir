// RUN: minixla-opt %s -p convert-func-to-llvm | filecheck %s

// Public functions keep external linkage and get the C entry point
// `_mlir_ciface_<name>(ptr slots)`: memref parameters are the slot pointers,
// scalars are loaded through them, results stored through the trailing slots.
// CHECK-LABEL: llvm.func @f(%a: !llvm.ptr, %s: f32) -> f32
// CHECK:         %[[M:.*]] = builtin.unrealized_conversion_cast %a : !llvm.ptr to memref<4xf32>
// CHECK:         memref.load %[[M]]
// CHECK:         %[[R:.*]] = llvm.call @helper(%s) : (f32) -> f32
// CHECK:         llvm.return %[[R]] : f32
// CHECK-LABEL: llvm.func @_mlir_ciface_f(%{{.*}}: !llvm.ptr)
// CHECK:         %[[S0:.*]] = llvm.getelementptr inbounds %[[ARGS:.*]][0] : (!llvm.ptr) -> !llvm.ptr, !llvm.ptr
// CHECK:         %[[P0:.*]] = llvm.load %[[S0]] : !llvm.ptr -> !llvm.ptr
// CHECK:         %[[S1:.*]] = llvm.getelementptr inbounds %[[ARGS]][1] : (!llvm.ptr) -> !llvm.ptr, !llvm.ptr
// CHECK:         %[[P1:.*]] = llvm.load %[[S1]] : !llvm.ptr -> !llvm.ptr
// CHECK:         %[[X:.*]] = llvm.load %[[P1]] : !llvm.ptr -> f32
// CHECK:         %[[Y:.*]] = llvm.call @f(%[[P0]], %[[X]]) : (!llvm.ptr, f32) -> f32
// CHECK:         %[[S2:.*]] = llvm.getelementptr inbounds %[[ARGS]][2] : (!llvm.ptr) -> !llvm.ptr, !llvm.ptr
// CHECK:         %[[P2:.*]] = llvm.load %[[S2]] : !llvm.ptr -> !llvm.ptr
// CHECK:         llvm.store %[[Y]], %[[P2]] : f32, !llvm.ptr
func.func @f(%a: memref<4xf32>, %s: f32) -> f32 {
  %c0 = arith.constant 0 : index
  %unused = memref.load %a[%c0] : memref<4xf32>
  %0 = func.call @helper(%s) : (f32) -> f32
  return %0 : f32
}

// Private functions are internal and get no wrapper; several results travel
// as a struct.
// CHECK-LABEL: llvm.func internal @helper(%x: f32) -> f32
// CHECK-NOT:   _mlir_ciface_helper
func.func private @helper(%x: f32) -> f32 {
  return %x : f32
}

// CHECK-LABEL: llvm.func internal @pair(%y: i32) -> !llvm.struct<(i32, i32)>
// CHECK:         %[[U:.*]] = llvm.mlir.undef : !llvm.struct<(i32, i32)>
// CHECK:         %[[V:.*]] = llvm.insertvalue %y, %[[U]][0] : !llvm.struct<(i32, i32)>
// CHECK:         %[[W:.*]] = llvm.insertvalue %y, %[[V]][1] : !llvm.struct<(i32, i32)>
// CHECK:         llvm.return %[[W]] : !llvm.struct<(i32, i32)>
func.func private @pair(%y: i32) -> (i32, i32) {
  return %y, %y : i32, i32
}

// Declarations stay declarations.
// CHECK:       llvm.func @ext(f64) -> f64
func.func private @ext(f64) -> f64
