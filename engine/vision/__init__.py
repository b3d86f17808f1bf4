"""Perception: what the game shows, decoded from RAM and tile maps, with a gate for unchanged frames."""
