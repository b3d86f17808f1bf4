"""Thin Ray actor shells around the plain role classes, and the factory that picks local or Ray."""
