"""The table in a browser: ``confrontation serve`` (FastAPI), its pages and JSON API
(docs/web.md). ``web.app.create_app`` makes the app; ``web.hub`` hosts the games."""
