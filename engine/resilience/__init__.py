"""Resilience: checkpoints and their timer."""
