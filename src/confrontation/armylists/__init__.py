"""Army lists (chapter I-D): loading, pricing and validation."""
