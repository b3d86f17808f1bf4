"""Harness levels: how much of the game the models play themselves, from decisions to raw buttons."""
