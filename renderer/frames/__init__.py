"""The frames of the frameset: Inbox note editors, the AI Assistant and provider frames."""
