"""Procedural memory, kept per (harness level, model): a model's own notes, which it rewrites whole, and a
library of skills (short markdown how-tos with a front matter saying where they apply and how often they
worked), both under DATA_DIR/procedural/<scope slug>/, and the injection screen every text a model will
read later passes (lessons too). Pure files and text: no emulator, no model calls."""
