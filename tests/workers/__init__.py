"""Tests of the backend: routes, ingress, tools, assistant, storage (R14–R28)."""
