"""The referee's core: the game state and its records, choices and events, the codec, the
rules value (:mod:`.ruleset`), the game's end and its narration. Imports no phase."""
