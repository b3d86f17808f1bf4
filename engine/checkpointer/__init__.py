"""The Checkpoint role: pulls every role's snapshot into one verified checkpoint, and pushes one back."""
