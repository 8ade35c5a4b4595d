"""Key paths and fixes for pydantic errors on data read from YAML (rules data, a game system's
rules and stats): ``(key_path, None, message)`` problems that name the key as written in the file
(``speeds.3.max``, ``weapons.chain.tn``, ``models[2].stats``) and say what to write instead. The
scene layer adds the file's line numbers. Pure: no YAML, no file I/O.
"""

from __future__ import annotations

import difflib
import typing
from typing import Annotated, Any, Mapping, Optional, Union

from pydantic import BaseModel, ValidationError

Problem = tuple[str, Optional[int], str]


def did_you_mean(word: str, allowed: list[str]) -> str:
    """"did you mean 'x'?" for the allowed name closest to ``word``, else the allowed names."""
    close = difflib.get_close_matches(word, allowed, n=1, cutoff=0.6)
    if close:
        return f"did you mean {close[0]!r}?"
    return f"use one of {', '.join(allowed)}" if allowed else "remove it"


def _unwrap(annotation: Any) -> Any:
    """The model or container type inside ``Annotated[...]`` and ``Optional[...]``."""
    while True:
        origin = typing.get_origin(annotation)
        if origin is Annotated:
            annotation = typing.get_args(annotation)[0]
        elif origin is Union:
            args = [a for a in typing.get_args(annotation) if a is not type(None)]
            if len(args) != 1:
                return annotation
            annotation = args[0]
        else:
            return annotation


def keys_allowed_at(model: type[BaseModel], loc: tuple) -> list[str]:
    """The keys a mapping at ``loc`` (inside ``model``) may have, as written in the file."""
    node: Any = model
    for part in loc:
        node = _unwrap(node)
        if isinstance(node, type) and issubclass(node, BaseModel):
            field = next((f for name, f in node.model_fields.items() if part in (name, f.alias)), None)
            if field is None:
                return []
            node = field.annotation
        elif typing.get_origin(node) in (dict, list, tuple):
            node = typing.get_args(node)[-1 if typing.get_origin(node) is dict else 0]
        else:
            return []
    node = _unwrap(node)
    if isinstance(node, type) and issubclass(node, BaseModel):
        return [f.alias or name for name, f in node.model_fields.items()]
    return []


def render_key_path(loc: tuple, data: Any) -> str:
    """A pydantic location as a rules key path, walking ``data`` to tell list indexes (``[2]``)
    from integer mapping keys (``speeds.3.max``), the way :mod:`entropy3d.scene.yamlsource` names
    lines."""
    text, node = "", data
    for part in loc:
        if isinstance(node, list) and isinstance(part, int):
            text += f"[{part}]"
            node = node[part] if 0 <= part < len(node) else None
            continue
        text += f".{part}" if text else str(part)
        node = node.get(part) if isinstance(node, Mapping) else None
    return text


def validation_problems(error: ValidationError, model: type[BaseModel], data: Any) -> list[Problem]:
    """Problems ``(key_path, None, message)`` of a pydantic error on rules ``data``, with the fix."""
    problems: list[Problem] = []
    for item in error.errors():
        # drop pydantic's own location tags (union members, "[key]" for a bad mapping key)
        loc = tuple(part for part in item["loc"]
                    if not (isinstance(part, str) and "[" in part and part.endswith("]")))
        path = render_key_path(loc, data)
        message = item["msg"].removeprefix("Value error, ")
        if item["type"] == "extra_forbidden":
            key = str(loc[-1])
            message = f"unknown key {key!r}; {did_you_mean(key, keys_allowed_at(model, loc[:-1]))}"
        elif item["type"] == "missing":
            message = "required key is missing"
        elif item["type"] == "finite_number":
            message = f"must be a finite number (got {item['input']!r}); write a plain number such as 2.5"
        elif item["type"] != "value_error" and "input" in item:
            message = f"{message} (got {item['input']!r})"
            if isinstance(item["input"], str) and item["type"] in ("int_type", "float_type"):
                message += "; write the number without quotes"
        problems.append((path, None, message))
    return problems
