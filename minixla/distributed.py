"""`import minixla.distributed as hvd`: the Horovod-style API of minixla.frontend.distributed."""

from minixla.frontend.distributed import (Average, DistributedGradientTape, DistributedOptimizer, Max, Min, Sum,
                                          allgather, allreduce, broadcast, broadcast_variables, init, local_rank,
                                          rank, size)

__all__ = ["Average", "DistributedGradientTape", "DistributedOptimizer", "Max", "Min", "Sum", "allgather",
           "allreduce", "broadcast", "broadcast_variables", "init", "local_rank", "rank", "size"]
