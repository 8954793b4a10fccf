"""The online server (FastAPI under uvicorn; the server extra): docs/architecture.md."""
