"""Plain data models: reference cards (profiles), artifacts and army lists."""
