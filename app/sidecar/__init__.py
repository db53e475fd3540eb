"""The Active Note Pointer sidecar (R58–R60): other tools learn which note is active, over MCP.

It lives in the host process beside the frames and is absent unless the person
turns it on. The MCP server runs on a thread and event loop of its own
(:mod:`app.sidecar.http`); everything it learns about the notes it asks of the GUI
thread (:mod:`app.sidecar.gui_calls`), which answers through the same store,
capture and document API the assistant uses (:mod:`app.sidecar.notes`). It
shares nothing with the turn channel but the store and the capture: what a turn
sends or stores does not change.
"""
