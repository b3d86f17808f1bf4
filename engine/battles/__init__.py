"""Battles as records: the decisions, what each led to, the outcome and the summary (pure, no emulator).
The battle tracker follows one battle from its first decision to its end."""
