"""``rules show``: a game file summarised for people, or its resolved spec as YAML."""
from __future__ import annotations

from typing import Any

import yaml


def resolved_yaml(spec: Any) -> str:
    """The spec after ``extends`` is applied, as YAML, with the option values in force."""
    head = [f"# {spec.name}: resolved from {spec.file}"]
    if spec.options:
        head.append("# options in force: " + ", ".join(f"{k}={_word(v)}" for k, v in spec.options.items()))
    body = yaml.safe_dump(spec.data, sort_keys=False, allow_unicode=True, width=100)
    return "\n".join(head) + "\n" + body


def summary(spec: Any) -> str:
    data = spec.data
    low, high, default = spec.players()
    lines = [spec.name, "=" * len(spec.name)]
    if data.get("description"):
        lines += [data["description"].strip(), ""]
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


def _word(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)
