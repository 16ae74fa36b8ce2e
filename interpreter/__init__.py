"""rules: a declarative engine for card and dice games."""
