"""The Inbox frame: one note in its views, its controls, conflicts, inline AI and drawing."""
