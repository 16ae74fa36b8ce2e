"""The ``rules`` command's entry: the commands live in ``interpreter/commands/`` (the group
``main`` in its ``__init__.py``, one module per group of commands); ``python -m interpreter``
runs the same command."""
from interpreter.commands import main

if __name__ == "__main__":  # pragma: no cover
    main()
