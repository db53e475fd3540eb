"""The assistant in the window: one per workspace, its settings, proposals, Ask AI."""
