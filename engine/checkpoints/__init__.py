"""Checkpoints: verified snapshots of a whole run, written atomically, restored after a failure.

DATA_DIR/checkpoints/<run id>/<seq, 6 digits>-<reason>/ holds JSON parts (<name>.json), binary parts (the
emulator's raw save state), manifest.json with the sha256 and size of every part, and manifest.sha256, the
seal written last, which covers the manifest itself. No pickle: a checkpoint is data that any later engine
can read and check. `store.CheckpointStore` writes, lists, verifies and loads them; `command` is
`engine checkpoints list|show|verify`. This module imports nothing so that building the console script's
parser stays cheap.
"""
