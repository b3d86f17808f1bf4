"""The world as the cartridge describes it: every map's blocks, walkable squares, warps, connections,
signs and objects, read from the user's cartridge at run time; the live overworld read from RAM; story
gates; a path planner across maps; and a text minimap. Pure: no emulator here."""
