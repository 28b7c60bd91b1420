"""Making a game (chapter III): armies into a state, the table, the scenery and the deployment."""
