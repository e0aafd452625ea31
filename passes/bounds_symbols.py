"""Names of the globals through which bounds-checked code reports its first violation
(`insert-bounds-checks` defines them, `backends/cpu/bounds_report.py` reads them). A module of
its own so that the runtime side can name them without importing the pass and its dialects."""

SITE, DIM, INDEX, TABLE = ("__minixla_bounds_site", "__minixla_bounds_dim", "__minixla_bounds_index",
                           "__minixla_bounds_sites")
