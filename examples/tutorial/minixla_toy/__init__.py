"""minixla's tutorial plugin (docs/tutorial/): the `toy` dialect (chapter 1), the
`toy-fold-scales` rewrite (chapter 2), `convert-toy-to-hlo` (chapter 3), the entry
points that make minixla load them (chapter 4, pyproject.toml) and the `toy-trace`
backend (chapter 5)."""
