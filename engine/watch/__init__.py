"""Watching a run live: the view the conductor publishes, and a small web page that shows it."""
