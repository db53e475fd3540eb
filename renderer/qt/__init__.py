"""Qt plumbing shared by the frames: background tasks whose results come back on the GUI thread."""
