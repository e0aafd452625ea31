"""lit configuration for minixla's FileCheck tests (`lit filecheck/ -v`).

Tools run as `python -m minixla.tools.opt` from the repository (so an editable
install is not required); PYTHONPATH, VIRTUAL_ENV and HOME are forwarded
because lit does not pass them on, and PYTHONHASHSEED is fixed so printed
IR (e.g. fast-math flag order) is stable.
"""

import os
import shutil
import sys

import lit.formats

config.name = "minixla"  # noqa: F821 -- `config` is provided by lit
config.test_format = lit.formats.ShTest(execute_external=False)  # noqa: F821
config.suffixes = [".mlir"]  # noqa: F821
config.excludes = ["lit.cfg.py", "Inputs"]  # noqa: F821
config.test_source_root = os.path.dirname(__file__)  # noqa: F821

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
python = sys.executable
pythonpath = os.pathsep.join(p for p in (root, os.environ.get("PYTHONPATH")) if p)

config.environment["PYTHONPATH"] = pythonpath  # noqa: F821
config.environment["PYTHONHASHSEED"] = "0"  # noqa: F821
for var in ("VIRTUAL_ENV", "HOME", "PATH"):
    if var in os.environ:
        config.environment[var] = os.environ[var]  # noqa: F821

filecheck = shutil.which("filecheck", path=os.path.dirname(python) + os.pathsep + os.environ.get("PATH", ""))
config.substitutions.append((r"\bminixla-opt\b", f"{python} -m minixla.tools.opt"))  # noqa: F821
config.substitutions.append((r"\bminixla-run\b", f"{python} -m minixla.tools.run"))  # noqa: F821
config.substitutions.append((r"\bminixla-translate\b", f"{python} -m minixla.tools.translate"))  # noqa: F821
config.substitutions.append((r"\bfilecheck\b", filecheck or "filecheck"))  # noqa: F821
