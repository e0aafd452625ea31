// RUN: minixla-opt %s --split-input-file --verify-diagnostics | filecheck %s

%x = "test.op"() : () -> tensor<2x4xf32>
%g = "hlo.all_gather"(%x) <{all_gather_dim = 1 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}> : (tensor<2x4xf32>) -> tensor<2x4xf32>
// CHECK: error: 'hlo.all_gather' op result shape [2, 4] must be the operand shape [2, 4] with dim 1 times the group size

// -----
%x = "test.op"() : () -> tensor<2x4xf32>
%g = "hlo.all_gather"(%x) <{all_gather_dim = 2 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}> : (tensor<2x4xf32>) -> tensor<2x8xf32>
// CHECK: error: 'hlo.all_gather' op all_gather_dim 2 is out of range for rank 2

// -----
%x = "test.op"() : () -> tensor<2x4xf32>
%g = "hlo.all_gather"(%x) <{all_gather_dim = 1 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, use_global_device_ids}> : (tensor<2x4xf32>) -> tensor<2x8xf32>
// CHECK: error: 'hlo.all_gather' op use_global_device_ids requires channel_id > 0

// -----
%x = "test.op"() : () -> tensor<2x3xf32>
%t = "hlo.all_to_all"(%x) <{split_dimension = 1 : i64, concat_dimension = 0 : i64, split_count = 2 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}> : (tensor<2x3xf32>) -> tensor<4x1xf32>
// CHECK: error: 'hlo.all_to_all' op operand dim 1 (3) is not divisible by 2

// -----
%x = "test.op"() : () -> tensor<2x4xf32>
%t = "hlo.all_to_all"(%x) <{split_dimension = 1 : i64, concat_dimension = 0 : i64, split_count = 2 : i64, replica_groups = dense<[[0, 1, 2]]> : tensor<1x3xi64>}> : (tensor<2x4xf32>) -> tensor<4x2xf32>
// CHECK: error: 'hlo.all_to_all' op replica_groups has groups of 3, split_count is 2

// -----
%x = "test.op"() : () -> tensor<2xf32>
%p = "hlo.collective_permute"(%x) <{source_target_pairs = dense<[[0, 1], [0, 2]]> : tensor<2x2xi64>}> : (tensor<2xf32>) -> tensor<2xf32>
// CHECK: error: 'hlo.collective_permute' op the sources of source_target_pairs must not repeat replica ids, got [0, 0]

// -----
%x = "test.op"() : () -> tensor<2xf32>
%p = "hlo.collective_permute"(%x) <{source_target_pairs = dense<[[0, 1, 2]]> : tensor<1x3xi64>}> : (tensor<2xf32>) -> tensor<2xf32>
// CHECK: error: 'hlo.collective_permute' op source_target_pairs must be N x 2, got [1, 3]

// -----
%x = "test.op"() : () -> tensor<4xf32>
%s = "hlo.reduce_scatter"(%x) <{scatter_dimension = 0 : i64, replica_groups = dense<[[0, 1, 2]]> : tensor<1x3xi64>}> ({
^bb0(%a: tensor<f32>, %b: tensor<f32>):
  %m = hlo.add %a, %b : tensor<f32>
  hlo.return %m : tensor<f32>
}) : (tensor<4xf32>) -> tensor<1xf32>
// CHECK: error: 'hlo.reduce_scatter' op result shape [1] must be the operand shape [4] with dim 0 divided by the group size

// -----
%r = hlo.replica_id : tensor<i32>
// CHECK: error: 'hlo.replica_id' op result must be tensor<ui32>, got tensor<i32>

// -----
%x = "test.op"() : () -> tensor<2xf32>
%t = "hlo.send"(%x) <{channel_handle = #hlo.channel_handle<handle = 1, type = 2>}> : (tensor<2xf32>) -> !hlo.token
// CHECK: error: 'hlo.send' op the last operand must be a token

// -----
%x = "test.op"() : () -> tensor<2xf32>
%b = "hlo.collective_broadcast"(%x) <{replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}> : (tensor<2xf32>) -> tensor<3xf32>
// CHECK: error: 'hlo.collective_broadcast' op result type tensor<3xf32> must be tensor<2xf32>

// -----
"interpreter.run_parallel"() <{programs = [[@a, @b], [@c]]}> : () -> ()
// CHECK: error: 'interpreter.run_parallel' op every replica needs the same number of partitions, got [1, 2]
