"""rules: a declarative engine for card and dice games.

The Python API is ``interpreter.api`` (docs/api.md); the stages are the subpackages, laid out in
docs/architecture.md; ``python -m interpreter`` runs the ``rules`` command.
"""
