"""The wire between the renderer and the backend: the pointer, its header, the HTTP clients.

Qt-free: imported by the desktop app and by the backend alike.
"""
