"""The team planner: what to change about the team for the bosses ahead (an evolution stone used, a Pokémon
taken out of the box in place of a member), each change weighed by the battle model's forecast."""
