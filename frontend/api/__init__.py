"""The public TF functions, one module per family (`core`, `nn`, `indexing`, ...);
`minixla.frontend.tf` assembles them into TensorFlow's namespaces."""
