"""Alembic migrations for the backend database; run on every server start."""
