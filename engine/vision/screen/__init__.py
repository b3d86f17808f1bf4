"""Reading the screen from pixels alone: the PNG a model is shown, matched 8x8 cell by cell against the
cartridge's own font and HUD tiles, then classified (overworld, battle, menu, dialog, transition)."""
