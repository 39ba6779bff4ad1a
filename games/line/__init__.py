"""Block, Draw and All Fives: the line games, one rules module with the variants as flags."""
