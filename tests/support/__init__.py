"""Test support shared by every test package: the real backend, its database, pointers."""
