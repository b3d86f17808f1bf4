"""The story: objectives from a new game onwards as data, their completion tests on RAM, and the
progress tests that tell whether play is getting anywhere."""
