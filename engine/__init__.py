"""An engine that plays Pokémon Red/Blue on PyBoy."""
