"""Test support shared by every test package: the real backend as a subprocess."""
