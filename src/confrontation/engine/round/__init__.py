"""The phases of a round (chapter IV) but the combat: strategic (IV-A), activation (IV-B),
maintenance (IV-D)."""
