"""The AI Assistant frame: transcript, turns, context chip, input and proposals."""
