"""The HTTP and WebSocket routes of the server, one module per area (``app.create_app`` wires
them; ``club``: the club manager). Each area's ``install(app)`` adds its routes to the app
itself rather than through an ``APIRouter``: FastAPI keeps an included router as one entry of
``app.routes``, and the tests walk ``app.routes`` for every route of the API."""
