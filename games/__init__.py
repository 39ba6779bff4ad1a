"""Pure rules kernel and AI for the dominoes server: the standard library only."""
