"""The offline assistant: intents, replies and their message catalogues (R38)."""
