"""minixla's command-line tools: minixla-opt, minixla-run, minixla-translate, reports."""

if __name__ != "minixla.tools":  # the folder is mapped under the import root; see minixla/__init__.py
    raise ImportError("import minixla's tools as `minixla.tools` (pip install -e . from the repository root)")

