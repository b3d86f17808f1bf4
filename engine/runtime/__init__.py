"""Running the engine: the run's files, its summary, and the in-process conductor (`--local`)."""
