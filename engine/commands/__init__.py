"""The `engine` subcommands, one module each: its parser, a typed options object made from the parsed
arguments before anything else runs, and what it does with them. Building the parsers imports neither
the emulator nor Ray, so `engine --help` stays instant."""
