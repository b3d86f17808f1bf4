"""An engine that plays Pokémon Red/Blue on PyBoy."""

__version__ = "0.1.0"
