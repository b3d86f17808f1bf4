"""`engine mcp`: the game as Model Context Protocol tools, by harness level."""
