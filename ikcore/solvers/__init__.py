"""One module per method; see :mod:`ikcore.problem` for what each provides."""
