"""QA scenarios: the file format, the runner that replays them on the real window, the recorder."""
