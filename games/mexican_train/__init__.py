"""Mexican Train: a round per double, a personal train per seat and one shared train."""
