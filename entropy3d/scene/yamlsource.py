"""YAML reading that remembers the line of every key, so errors can point at it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from entropy3d.errors import SceneError


def key_path(loc: tuple) -> str:
    """('models', 2, 'rider', 'dodge') -> 'models[2].rider.dodge'."""
    text = ""
    for part in loc:
        if isinstance(part, int):
            text += f"[{part}]"
        else:
            text += f".{part}" if text else str(part)
    return text


def _walk(node: yaml.Node, loc: tuple, lines: dict[str, int]) -> None:
    lines[key_path(loc)] = node.start_mark.line + 1
    if isinstance(node, yaml.MappingNode):
        for key_node, value_node in node.value:
            child = loc + (key_node.value,)
            _walk(value_node, child, lines)
            lines[key_path(child)] = key_node.start_mark.line + 1
    elif isinstance(node, yaml.SequenceNode):
        for index, item in enumerate(node.value):
            _walk(item, loc + (index,), lines)


def read_yaml_with_lines(path: Path, error_class=SceneError) -> tuple[Any, dict[str, int]]:
    """Parse a YAML file; return the data and a map from key path to 1-based line number."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise error_class(path, [("", None, "file not found")]) from None
    except (IsADirectoryError, PermissionError, UnicodeDecodeError) as error:
        raise error_class(path, [("", None, f"cannot read: {error}")]) from None
    try:
        data = yaml.safe_load(text)
        root = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        line = mark.line + 1 if mark is not None else None
        problem = getattr(error, "problem", None) or str(error)
        raise error_class(path, [("", line, f"not valid YAML: {problem}")]) from None
    lines: dict[str, int] = {}
    if root is not None:
        _walk(root, (), lines)
    return data, lines


def line_of(lines: dict[str, int], path: str) -> int | None:
    """The line of ``path`` or of its nearest parent that has one."""
    while path:
        if path in lines:
            return lines[path]
        cut = max(path.rfind("."), path.rfind("["))
        path = path[:cut] if cut > 0 else ""
    return None
