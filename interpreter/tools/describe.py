"""``rules show``: a game file summarised for people, or its resolved spec as YAML; ``rules
games``: the bundled games listed."""
from __future__ import annotations

import textwrap
from typing import TYPE_CHECKING, Any

import yaml

from ..lean import lean_game, lean_reason

if TYPE_CHECKING:
    from ..engine.loaded import LoadedGame
    from ..load.spec import Spec


def resolved_yaml(spec: Spec) -> str:
    """The spec after ``extends`` is applied, as YAML, with the option values in force."""
    head = [f"# {spec.name}: resolved from {spec.file}"]
    if spec.options:
        head.append("# options in force: " + ", ".join(f"{k}={_word(v)}" for k, v in spec.options.items()))
    body = yaml.safe_dump(spec.data, sort_keys=False, allow_unicode=True, width=100)
    return "\n".join(head) + "\n" + body


def summary(spec: Spec) -> str:
    data = spec.data
    low, high, default = spec.players()
    lines = [spec.name, "=" * len(spec.name)]
    if data.get("description"):
        lines += [data["description"].strip(), ""]
    if data.get("summary"):
        lines += ["The rules in brief:", textwrap.fill(" ".join(data["summary"].split()), width=96), ""]
    if data.get("legend"):
        lines += ["On the table:"] + [f"  {mark}  {meaning}" for mark, meaning in data["legend"].items()] + [""]
    lines.append(f"players: {low} to {high} (default {default})")
    options = data.get("options", {})
    if options:
        lines.append("options:")
        for name, option in options.items():
            choices = f" one of {', '.join(map(str, option['choices']))}" if "choices" in option else ""
            text = option.get("description", "")
            lines.append(f"  {name} ({option['type']}{choices}, now {_word(spec.options[name])}): {text}".rstrip(": "))
    lines.append("phases:")
    for phase in data["flow"]["phases"]:
        lines.append(f"  {phase['name']}: {', '.join(phase['moves'])}")
    lines.append("moves:")
    for name, move in data.get("moves", {}).items():
        params = " ".join(f"<{p}>" for p in move.get("params", {}))
        text = move.get("description", "")
        lines.append(f"  {name} {params}".rstrip() + (f": {text}" if text else ""))
    return "\n".join(lines)


def engine_info(game: Any) -> dict:
    """Which engine runs the game: ``lean`` (with the expressions whose work is counted as they
    run), or ``reference`` with the reason the lean engine does not generate it."""
    game = getattr(game, "game", game)
    lean = lean_game(game)
    if lean is None:
        return {"engine": "reference", "reason": lean_reason(game), "counted": []}
    return {"engine": "lean", "reason": None, "counted": list(lean.counted)}


def engine_line(game: Any) -> str:
    """Which engine runs the game: the lean engine, or why not (then the reference engine)."""
    info = engine_info(game)
    if info["engine"] == "reference":
        return f"engine: reference; the lean engine does not generate this game: {info['reason']}"
    line = "engine: lean (a module generated for this game: rules show --generated prints it)"
    counted = info["counted"]
    if not counted:
        return line
    texts = ", ".join(f"'{text}'" for text in counted)
    return f"{line}; the work of {_expressions(len(counted))} is counted as it runs, not bounded at load: {texts}"


def _expressions(count: int) -> str:
    return "1 expression" if count == 1 else f"{count} expressions"


def summary_json(loaded: LoadedGame) -> dict:
    """``rules show --format json``: what ``summary`` and ``engine_line`` say, as data."""
    spec, data = loaded.spec, loaded.spec.data
    low, high, default = spec.players()
    options = {name: {"type": option["type"], "value": spec.options[name], "default": option["default"],
                      "choices": option.get("choices"), "description": option.get("description", "")}
               for name, option in data.get("options", {}).items()}
    moves = {name: {"params": list(move.get("params", {})), "label": move.get("label"),
                    "description": move.get("description", "")} for name, move in data.get("moves", {}).items()}
    return {"name": spec.name, "file": spec.file, "description": " ".join(str(data.get("description", "")).split()),
            "summary": " ".join(str(data.get("summary", "")).split()), "legend": dict(data.get("legend") or {}),
            "players": {"min": low, "max": high, "default": default}, "options": options,
            "phases": [{"name": p["name"], "label": p.get("label"), "moves": list(p["moves"])}
                       for p in data["flow"]["phases"]],
            "moves": moves, **engine_info(loaded)}


def _word(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def games_listing(specs: list[tuple[str, Any]]) -> str:
    """The bundled games: each one's name to type, title, players and description."""
    blocks = []
    for name, spec in specs:
        low, high, _ = spec.players()
        players = f"{low} players" if low == high else f"{low} to {high} players"
        text = " ".join(str(spec.data.get("description", "")).split())
        body = textwrap.fill(text, width=96, initial_indent="    ", subsequent_indent="    ") if text else ""
        blocks.append(f"{name}: {spec.name}, {players}" + (f"\n{body}" if body else ""))
    return "\n".join(blocks)


def games_json(specs: list[tuple[str, Any]]) -> list[dict]:
    return [{"name": name, "title": spec.name, "file": spec.file, "players": dict(zip(("min", "max", "default"),
             spec.players())), "description": " ".join(str(spec.data.get("description", "")).split())}
            for name, spec in specs]
