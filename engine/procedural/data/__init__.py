"""The starter skills every new skill library begins with (markdown with a front matter)."""
