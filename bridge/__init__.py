"""The contract package: everything the desktop app and the backend agree on.

The pointer and its ``X-Ambient-Note`` codec, path and workspace-id rules, header
and environment names, the R25 caveat, drop reasons, the assistant frame id and
the HTTP clients. Qt-free, and it imports neither realm: both import it.
"""
