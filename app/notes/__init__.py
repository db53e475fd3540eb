"""A note's life outside its frame: New note, and no text lost when a save fails."""
