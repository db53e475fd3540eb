"""HTTP routers, one per concern; :func:`workers.app.create_app` wires them."""
