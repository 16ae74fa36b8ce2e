"""Tricks in lean code: a card's effective suit and rank, the trump, the led suit, the winner,
the cards a seat may play, and ``play_to_trick`` with who played what and the suits a seat
showed it lacks, as ``engine/tricks.py`` works them out.

The state keeps, for the round ``played_round``, the seat that played each card
(``played_by``) and the suits led each seat did not follow (``voids``): the reference's
``$played`` variable.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from .code import Code, Env
from .ltypes import CARD, INT, NUM, LType, Opt, Unsupported, holds_objects, nullable, strip


PLACEHOLDER = "__card__"
PLACEHOLDER_NAME = re.compile(r"(?<![\w.])__card__(?!\w)")


@dataclass
class TrickInfo:
    suit_type: LType
    rank_type: LType


def write_tricks(m: Any) -> TrickInfo:
    """The helpers' lines (added to the module's functions) and the types of suits and ranks."""
    tricks = m.game.tricks
    section = m.game.spec.data["tricks"]
    # The suit and rank written once for a card named by a placeholder, then for each local name.
    read = Env({"card": Code(PLACEHOLDER, CARD, bits=14)}, me="me", me_sure=False)
    suit, rank = m.expr(section["suit"], read), m.expr(section["rank"], read)
    templates = {"suit": suit.text, "rank": rank.text}

    def written(part: str, card: str) -> str:
        """The trick's ``suit`` or ``rank`` of the card in the local ``card``, written out (no call)."""
        return "(" + PLACEHOLDER_NAME.sub(card, templates[part]) + ")"

    trump = m.expr(section["trump"], Env(me="me", me_sure=False)) if "trump" in section else None
    if holds_objects(suit.type):
        raise Unsupported("a trick's suit that is a card or a seat")
    info = TrickInfo(nullable(suit.type), rank.type)
    zone, hand = m.shape.zones[tricks.zone], m.shape.zones[tricks.hand]
    trick_pile = f"s.{zone.slot}[0]"
    higher = "(r > br)" if strip(rank.type) in (INT, NUM) and not isinstance(rank.type, Opt) else "_higher(r, br)"
    lines = [
        "def t_suit(s, me, card):", f"    return {written('suit', 'card')}", "",
        "def t_rank(s, me, card):", f"    return {written('rank', 'card')}", "",
        "def t_trump(s, me):", f"    return {trump.text if trump else 'None'}", "",
        "def t_led(s, me):",
        f"    p = {trick_pile}",
        "    if not p:",
        "        return None",
        "    first = p[0]",
        f"    return {written('suit', 'first')}", "",
        "def t_winning(s, me):",
        f"    p = {trick_pile}",
        "    if not p:",
        "        return None",
        f"    trump = {trump.text if trump else 'None'}",
        "    best = p[0]",
        f"    bs, br = {written('suit', 'best')}, {written('rank', 'best')}",
        "    for c in p[1:]:",
        f"        su = {written('suit', 'c')}",
        "        if su == bs:",
        f"            r = {written('rank', 'c')}",
        f"            if {higher}:",
        "                best, br = c, r",
        "        elif trump is not None and su == trump:",
        f"            best, bs, br = c, su, {written('rank', 'c')}",
        "    return best", "",
        "def t_played_by(s, card):",
        "    if type(card) is not int:",
        "        _fail()",
        "    return s.played_by.get(card) if s.played_round == s.round else None", "",
        "def t_winner(s, me):",
        "    card = t_winning(s, me)",
        "    return None if card is None else t_played_by(s, card)", "",
        "def t_leader(s):",
        f"    p = {trick_pile}",
        "    return t_played_by(s, p[0]) if p else None", "",
        "def t_playable(s, me):",
        f"    hand = list(s.{hand.slot}[me])",
        f"    p = {trick_pile}",
        "    if not p:",
        "        return hand",
    ]
    if tricks.must_follow:
        lines += ["    first = p[0]",
                  f"    led = {written('suit', 'first')}",
                  f"    return [c for c in hand if {written('suit', 'c')} == led] or hand", ""]
    else:
        lines += ["    return hand", ""]
    lines += [
        "def t_play(s, me, card):",
        f"    p = {trick_pile}",
        "    if p:",
        "        first = p[0]",
        f"        led = {written('suit', 'first')}",
        "    else:",
        "        led = None",
        "    try:",
        f"        s.{hand.slot}[me].remove(card)",
        "    except ValueError:",
        "        _lift(s, card)",
        "    p.append(card)",
        "    s.up[card] = 1",
        "    if s.played_round != s.round:",
        "        s.played_round, s.played_by, s.voids = s.round, {}, {}",
        "    s.played_by[card] = me",
        f"    if led is not None and {written('suit', 'card')} != led:",
        "        off = s.voids.get(me)",       # a new map and list when a suit is added: clones share them
        "        if off is None:",
        "            s.voids = {**s.voids, me: [led]}",
        "        elif led not in off:",
        "            s.voids = {**s.voids, me: off + [led]}", "",
    ]
    m.function_lines += lines
    return info
