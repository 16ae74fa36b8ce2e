"""rules: a declarative engine for card and dice games."""
from . import moved

moved.install()
