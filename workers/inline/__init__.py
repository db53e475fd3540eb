"""The Inline AI command on the backend (R68–R74, contract 13).

One shot, not a conversation turn: the route (:mod:`workers.inline.routes`) takes the
instruction and a bounded slice, the runner (:mod:`workers.inline.runner`) asks the
configured assistant once (the offline edits of :mod:`workers.inline.edits`, or one
streamed model request of :mod:`workers.inline.model`), and the record
(:mod:`workers.inline.records`) keeps what was asked, never the note text. Nothing here
reads ``X-Ambient-Note`` or touches a delivery row.
"""
