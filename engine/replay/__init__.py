"""Battle replays and counterfactuals.

A logged battle (runs/<run id>/battles/<battle id>.json and its start state) is played again on the
user's cartridge with the logged actions, emulated exactly as the conductor does, and compared with its
log. With counterfactuals, every other legal action at every decision is tried from that decision's
state (the rest of the battle played by the rule-based policy) against a like-for-like baseline, on a
pool of emulator workers; alternatives that would have won what was lost become lessons.
"""
