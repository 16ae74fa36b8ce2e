"""The host's console: what the server tells the person who started it.

A table that stops (and why, in full), a record's torn last line dropped on a restart, a fault
of the server: logged to ``rules.serve``, which ``rules serve`` prints on its standard error
beside uvicorn's own lines, in the same form (``ERROR:    table ... stopped: ...``). A client's
fault is no fault of the server's: uvicorn's traceback for a text frame that is not UTF-8 is
one line here (``NotUtf8``).
"""
from __future__ import annotations

import copy
import logging
from typing import Any

LOGGER = "rules.serve"
console = logging.getLogger(LOGGER)


class NotUtf8(logging.Filter):
    """uvicorn reports a text frame that is not UTF-8 (which it answers by closing the connection
    with 1007) as an error with a traceback: it is the client's fault, said in one line."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.exc_info and str(record.msg).startswith("Invalid UTF-8 sequence received from client"):
            record.exc_info, record.exc_text = None, None
            record.msg, record.args = "a connection sent text that is not UTF-8: closed (1007)", ()
            record.levelno, record.levelname = logging.INFO, "INFO"
        return True


def log_config() -> dict[str, Any]:
    """uvicorn's logging configuration, with the server's own logger printed by its handler."""
    from uvicorn.config import LOGGING_CONFIG

    config = copy.deepcopy(LOGGING_CONFIG)
    config["loggers"][LOGGER] = {"handlers": ["default"], "level": "INFO", "propagate": False}
    config.setdefault("filters", {})["not_utf8"] = {"()": f"{__name__}.NotUtf8"}
    config["loggers"]["uvicorn.error"] = {**config["loggers"].get("uvicorn.error", {}), "filters": ["not_utf8"]}
    return config
