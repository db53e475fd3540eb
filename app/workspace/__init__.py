"""Opening and switching workspaces, what each keeps across switches, finding notes in them."""
