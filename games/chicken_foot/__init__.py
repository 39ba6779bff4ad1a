"""Chicken Foot: a hand per double, a four-armed opening double and three-toed feet."""
