"""Op definitions of the `hlo` dialect, split by concern; `dialects.hlo` assembles them."""
