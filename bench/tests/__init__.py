"""The bench tools' own tests: `pytest bench/tests` (`-m slow` for the load generator's).

The project's suite under tests/ tests the project's code and imports nothing from bench/.
"""
