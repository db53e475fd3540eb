"""The renderer realm: frames, their Qt widgets, and the Qt-free ambient core."""
