"""lit configuration for the tutorial plugin's FileCheck tests (`lit examples/tutorial/filecheck`):
`minixla-opt` must find the plugin's dialect and passes through its entry points."""

import os
import shutil
import sys

import lit.formats

config.name = "minixla-toy"  # noqa: F821 -- provided by lit
config.test_format = lit.formats.ShTest(execute_external=False)  # noqa: F821
config.suffixes = [".mlir"]  # noqa: F821
config.test_source_root = os.path.dirname(__file__)  # noqa: F821
for var in ("VIRTUAL_ENV", "HOME", "PATH", "PYTHONPATH"):
    if var in os.environ:
        config.environment[var] = os.environ[var]  # noqa: F821
python = sys.executable
filecheck = shutil.which("filecheck", path=os.path.dirname(python) + os.pathsep + os.environ.get("PATH", ""))
config.substitutions.append((r"\bminixla-opt\b", f"{python} -m minixla.tools.opt"))  # noqa: F821
config.substitutions.append((r"\bfilecheck\b", filecheck or "filecheck"))  # noqa: F821
