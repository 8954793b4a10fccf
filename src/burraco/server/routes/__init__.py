"""The HTTP and WebSocket routes of the server, one module per area (``app.create_app`` wires
them)."""
