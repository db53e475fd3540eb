"""The desktop app: the host process that owns windows, the backend launcher and the CLI."""
