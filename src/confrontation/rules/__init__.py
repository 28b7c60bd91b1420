"""Pure rule functions: characteristics, tests and wounds (chapter II)."""
