"""The world's puzzles, solved from what the player can see and has tried: the Vermilion Gym's trash cans
first; spinners, boulders and switch doors to follow."""
