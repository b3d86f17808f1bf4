"""The closed loops that drive the emulator: the battle executor, the new-game intro, walking; and the
Emulator role that owns them. Above both the game knowledge (`engine.game`) and the PyBoy session
(`engine.emulator`); nothing here decides, it only does what it is told and checks RAM that it worked."""
