"""Scene commands: validate, info, schema, render (filled in by the foundation work)."""
