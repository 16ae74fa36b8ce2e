"""``python -m interpreter ARGS``: the ``rules`` command (interpreter/commands/)."""
from interpreter.commands import main

if __name__ == "__main__":  # pragma: no cover
    main()
