"""minixla-opt with one deliberately wrong pass, `test-add-to-subtract`
(hlo.add -> hlo.subtract), registered only here for the --bisect tests."""

import sys

from minixla.passes import register
from minixla.tools.opt import main
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter


class AddToSubtract(ModulePass):
    name = "test-add-to-subtract"

    def apply(self, ctx, op):
        from minixla.dialects import hlo

        for add in [o for o in op.walk() if isinstance(o, hlo.AddOp)]:
            Rewriter.replace_op(add, hlo.SubtractOp.create(
                operands=list(add.operands), result_types=[r.type for r in add.results]))


register(AddToSubtract.name, "__main__:AddToSubtract")
sys.exit(main(sys.argv[1:]))
