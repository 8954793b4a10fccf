"""The club manager, on the store (the server extra): docs/club.md."""
