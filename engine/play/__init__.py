"""One game for an agent outside the engine: the MCP server and the Gymnasium environment share it."""
