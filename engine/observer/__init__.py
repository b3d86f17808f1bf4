"""Journey memory: badges, team snapshots, battles won and lost, notable events."""
