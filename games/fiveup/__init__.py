"""Five-Up: a fives game of the double-six set where every double is a spinner (docs/rules-fiveup.md)."""
