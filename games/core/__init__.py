"""Shared building blocks of every game: tiles, the fair shuffle, actions, options, errors."""
