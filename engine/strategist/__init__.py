"""Event-driven strategy: directives on battle start, new enemies, low HP, stuck streaks, heartbeats."""
