"""The PyBoy session: frames, input, memory reads, save states and the files that hold them."""
