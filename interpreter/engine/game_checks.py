"""Checks of a compiled game that need the types of its expressions: what the number of rounds,
a parameter's list, a score and a view line must be, how many choices a move's parameters can
give when their lists are known at load, and views that would show hidden cards to every seat.

Each check returns the errors it found; the compiler reports them with all the others.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .. import limits
from ..errors import LimitError, RulesError, SpecError
from ..expr import ANY, INT, NUMBER, Compiled, ListOf
from ..expr.nodes import Call, Index, Member, Name, Slice, all_nodes
from ..expr.types import compatible

if TYPE_CHECKING:
    from ..errors import Position
    from ..expr.nodes import Node
    from ..load.spec import ZoneDef
    from ..load.variants import MergedDocument
    from ..load.yaml_positions import Document

# Zone members that show which cards a zone holds (``size`` and ``empty`` show only how many).
SHOWS_CARDS = frozenset({"cards", "top", "bottom", "slots", "rows", "cols", "lines"})


def _compiled(value: Any) -> bool:
    return isinstance(value, Compiled)      # not the stand-in of one that did not compile


def check_rounds(rounds: Any) -> list[SpecError]:
    """``flow.rounds``: a whole number, at least 1 when it is known at load."""
    if not _compiled(rounds):
        return []
    if not compatible(rounds.type, INT):
        return [SpecError(f"flow.rounds must be a whole number, not {rounds.type}", rounds.pos)]
    if rounds.constant and isinstance(rounds.value, int) and rounds.value < 1:
        return [SpecError(f"flow.rounds must be at least 1, not {rounds.value}", rounds.pos,
                          hint="a match has at least one round")]
    return []


def check_params(move: str, params: list, stages: list) -> list[RulesError]:
    """Each parameter draws from a list. When the lists are known at load and no condition can
    drop a choice before the last of them, every combination is tried: their number is checked
    against the limit the listing keeps at run time."""
    errors: list[RulesError] = [_not_a_list(move, p) for p in params
                                if _compiled(p.domain) and not compatible(p.domain.type, ListOf(ANY))]
    choices = 1
    for depth, param in enumerate(params):
        domain = param.domain
        if errors or not _compiled(domain) or not domain.constant or not isinstance(domain.value, list):
            break
        if depth and stages[depth]:        # a condition on the earlier choices may drop some
            break
        size = len(domain.value) if param.kind == "from" else 2 ** min(len(domain.value), 64)
        choices *= size
        if choices > limits.MAX_MOVE_CHOICES:
            return [too_many_choices(move, domain.pos)]
    return errors


def _not_a_list(move: str, param: Any) -> SpecError:
    return SpecError(f"parameter '{param.name}' of move '{move}' must draw from a list, not {param.domain.type}",
                     param.domain.pos, hint="write a list, such as 1..5, [1, 2, 3] or hand.cards")


def too_many_choices(move: str, pos: Position | None) -> LimitError:
    return LimitError(f"the parameters of move '{move}' give more than {limits.MAX_MOVE_CHOICES} choices", pos,
                      hint="draw from shorter lists, use fewer parameters, or check each choice in 'when' sooner")


def check_number(what: str, compiled: Any) -> list[SpecError]:
    """A score, a tie-break or a result: a number (ranking compares and adds them)."""
    if not _compiled(compiled) or compatible(compiled.type, NUMBER):
        return []
    return [SpecError(f"{what} must be a number, not {compiled.type}", compiled.pos)]


def check_view(doc: Document | MergedDocument, path: tuple, compiled: Any, zones: dict,
               cups_hidden: str | None = None) -> list[SpecError]:
    """A ``view:`` line is shown to every seat: it may not read the cards of a zone some seat
    may not see (a zone seen by its owner or by nobody, or lying face down; of a zone showing only
    its top card, anything but the top), nor the dice of cups some seat may not see (``cups_hidden``
    says why). How many cards or dice there are is public: ``len(z.cards)``."""
    if not _compiled(compiled):
        return []
    counted = {id(node.args[0]) for node in all_nodes(compiled.node)
               if isinstance(node, Call) and isinstance(node.callee, Name) and node.callee.name == "len"
               and len(node.args) == 1}
    for node in all_nodes(compiled.node) if cups_hidden else ():
        if _names_dice(node) and id(node) not in counted:
            return [SpecError(f"view: '{path[-1]}' shows the dice of the cups to every seat, but {cups_hidden}",
                              doc.locate(path, node.start, node.end - node.start),
                              hint="show only what every seat may see, such as how many dice a cup holds")]
    for node in all_nodes(compiled.node):
        if not isinstance(node, Member) or node.name not in SHOWS_CARDS or id(node) in counted:
            continue
        zone = zones.get(_zone_named(node.obj))
        if zone is None:
            continue
        why = _hidden(zone, node.name)
        if why:
            return [SpecError(f"view: '{path[-1]}' shows the cards of zone '{zone.name}' to every seat, but {why}",
                              doc.locate(path, node.start, node.end - node.start),
                              hint="show only what every seat may see, such as how many cards it holds")]
    return []


def check_own_hidden_cards(doc: Document | MergedDocument, path: tuple, params: list, zones: dict) -> list[SpecError]:
    """A move's text is shown to the seat that makes it: a parameter may not draw the cards of the
    mover's own zone that its owner may not see (``visible_to: others``, named alone: ``hand``,
    ``hand.cards``); such cards are named by their place instead."""
    for param in params:
        if not _compiled(param.domain):
            continue
        for node in all_nodes(param.domain.node):
            named = node.obj if isinstance(node, Member) and node.name in SHOWS_CARDS else node
            zone = zones.get(named.name) if isinstance(named, Name) else None
            if zone is not None and zone.visible_to == "others" and (node is not named or node is param.domain.node):
                return [SpecError(f"parameter '{param.name}' of move '{path[-1]}' names the cards of zone "
                                  f"'{zone.name}', but their owner, who makes the move, may not see them",
                                  doc.locate(path + ("params", param.name, param.kind), node.start,
                                             node.end - node.start),
                                  hint=f"name them by their place: {{from: '1..{zone.name}.size'}}, "
                                       f"then {zone.name}.cards[place - 1]")]
    return []


def _names_dice(node: Node) -> bool:
    return isinstance(node, Name) and node.name == "dice" or isinstance(node, Member) and node.name == "dice"


def cups_hidden(game: Any) -> str | None:
    """Why some seat may not see the dice of the cups, or None (table dice, or cups seen by all)."""
    if game.dice_per != "seat" or game.dice_visible_to == "all":
        return None
    return CUPS_HIDDEN[game.dice_visible_to]


CUPS_HIDDEN = {"owner": "only its owner may see a cup", "others": "its owner may not see a cup",
               "none": "no seat may see a cup"}


def check_dice(doc: Document | MergedDocument, dice: dict | None) -> list[SpecError]:
    """``visible_to`` says who sees a seat's cup: dice not per seat are the table's, seen by all."""
    if dice and dice.get("visible_to", "all") != "all" and dice.get("per", "game") != "seat":
        return [SpecError(f"dice: visible_to: {dice['visible_to']} needs a cup per seat, but the dice are the table's",
                          doc.pos(("dice", "visible_to")), hint="add per: seat")]
    return []


def _zone_named(node: Node) -> str | None:
    """The zone an expression names directly: ``hand``, ``p.hand``, ``work[0]``."""
    while isinstance(node, (Index, Slice)):
        node = node.obj
    if isinstance(node, Name):
        return node.name
    if isinstance(node, Member):
        return node.name
    return None


def _hidden(zone: ZoneDef, member: str) -> str | None:
    """Why some seat may not see what ``zone.member`` shows, or None when every seat may."""
    if zone.visible_to == "owner":
        return "only its owner may see them"
    if zone.visible_to == "others":
        return "its owner may not see them"
    if zone.visible_to == "none":
        return "no seat may see them"
    if zone.face == "down":
        return "they lie face down"
    if zone.top_only and member != "top":
        return "only its top card is shown"
    return None
