"""The fighters' actions during an activation: movement (chapter V) and shooting (chapter VI)."""
