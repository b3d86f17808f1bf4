"""Gen 1 knowledge, pure (no emulator): the cartridge header, the RAM map and decoders, tables from
pret/pokered, the damage calculator, battle actions and their legal sets, the assessment of a battle."""
