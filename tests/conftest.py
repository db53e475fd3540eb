"""Test configuration shared by every test: offscreen Qt, no display needed."""

from __future__ import annotations

import os

# Set before anything imports Qt, so `pytest` alone works with no display.
os.environ["QT_QPA_PLATFORM"] = "offscreen"
