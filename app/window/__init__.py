"""The main window: its composition, its model of frames, their mounting, its banners and look."""
