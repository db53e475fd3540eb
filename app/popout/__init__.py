"""Popped-out notes (R29): the child process's window, the host's side, where they open."""
