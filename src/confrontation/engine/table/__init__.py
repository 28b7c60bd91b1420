"""The battlefield of a state: the cached geometry of the table and the contact limits (II-E-3)."""
