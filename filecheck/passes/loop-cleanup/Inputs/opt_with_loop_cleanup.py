"""minixla-opt with `loop-cleanup` registered (passes/loop_cleanup.py), until passes/__init__.py
registers it with the others (docs/compile-time.md, "Session 9")."""

import sys

from minixla.passes import register
from minixla.tools.opt import main

register("loop-cleanup", "minixla.passes.loop_cleanup:LoopCleanup")
sys.exit(main(sys.argv[1:]))
