"""Routes: thin handlers over the room service, the move pipeline and the Hall."""
