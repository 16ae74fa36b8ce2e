"""Per-seat secrets: a link with a seat's token is that seat; nothing else is.

Tokens are random (``secrets``), compared in constant time, and never sent to any connection
but the one that presented it.
"""
from __future__ import annotations

import hmac
import secrets

TOKEN_BYTES = 18          # 24 characters of URL-safe text
TABLE_ID_BYTES = 6        # a table's name in its links: 8 characters


def new_table_id() -> str:
    return secrets.token_urlsafe(TABLE_ID_BYTES)


class SeatTokens:
    def __init__(self, seats: list[int], given: dict[int, str] | None = None):
        self.tokens = {seat: (given or {}).get(seat) or secrets.token_urlsafe(TOKEN_BYTES) for seat in seats}

    def seat_of(self, token: str) -> int | None:
        """The seat this token belongs to, or None."""
        found = None
        for seat, secret in self.tokens.items():
            # Every token is compared, so the time taken says nothing about which one nearly matched.
            if hmac.compare_digest(secret.encode(), token.encode()):
                found = seat
        return found

    def token(self, seat: int) -> str:
        return self.tokens[seat]
