"""YAML reading that remembers the line of every key, so errors can point at it."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import yaml

from entropy3d.errors import SceneError

#: a key written bare in a key path; any other key is quoted in brackets
_PLAIN_KEY = re.compile(r"[A-Za-z_][\w\-]*")


def key_path(loc: tuple) -> str:
    """('models', 2, 'rider', 'dodge') -> 'models[2].rider.dodge'; a key that is not a plain name
    is quoted: ('cameras', 'Low view') -> "cameras['Low view']"."""
    text = ""
    for part in loc:
        if isinstance(part, int) and not isinstance(part, bool):
            text += f"[{part}]"
        elif isinstance(part, str) and _PLAIN_KEY.fullmatch(part):
            text += f".{part}" if text else part
        else:
            text += f"[{part!r}]"
    return text


#: libyaml's parser when PyYAML has it (ten times faster), else PyYAML's own; both safe
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
#: refused beyond these, with the limit in the message (a scene is a few kilobytes)
MAX_FILE_BYTES = 8 * 1024 * 1024
MAX_DEPTH = 64
#: YAML nodes after every alias is expanded (an alias bomb expands ten lines to a billion)
MAX_NODES = 1_000_000


class _Refused(Exception):
    """A structural limit of the strict loader, with the line it was found at."""

    def __init__(self, line: int | None, path: str, message: str):
        self.line, self.path, self.message = line, path, message


def _check_depth(text: str) -> tuple[bool, int]:
    """Refuse nesting deeper than MAX_DEPTH before composing (PyYAML composes recursively).
    Returns whether the text has an alias and how many nodes it writes out (aliases not counted):
    without an alias, that count is what it expands to.

    Some libyaml builds (the one in PyYAML 6.0.4's wheels) stop at a nesting limit of their own,
    in their own words and before the parser has handed over a single deep event, since the
    scanner reads flow brackets ahead. So when the fast parser fails, the text is walked again with
    PyYAML's pure-Python parser, which has no such limit: a file nested too deep is refused with
    our limit and its line whichever PyYAML is installed; any other fault is reported in the fast
    parser's words, as before."""
    try:
        return _walk_depth(text, _LOADER)
    except yaml.YAMLError:
        if _LOADER is yaml.SafeLoader:
            raise
        try:
            _walk_depth(text, yaml.SafeLoader)  # raises _Refused where the nesting is too deep
        except yaml.YAMLError:
            pass
        raise


def _walk_depth(text: str, loader: type) -> tuple[bool, int]:
    depth = nodes = 0
    aliased = False
    for event in yaml.parse(text, Loader=loader):
        if isinstance(event, (yaml.MappingStartEvent, yaml.SequenceStartEvent)):
            nodes += 1
            depth += 1
            if depth > MAX_DEPTH:
                raise _Refused(event.start_mark.line + 1, "",
                               f"nested deeper than {MAX_DEPTH} levels (the limit); a scene needs no more than 6")
        elif isinstance(event, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
            depth -= 1
        elif isinstance(event, yaml.ScalarEvent):
            nodes += 1
        elif isinstance(event, yaml.AliasEvent):
            aliased = True
    return aliased, nodes


def _expanded_sizes(root: yaml.Node) -> dict[int, int]:
    """The number of nodes under each node (by id) once aliases are expanded, counted once per
    node, so an alias bomb costs its size in lines; a recursive anchor is refused."""
    sizes: dict[int, int] = {}
    stack: list[tuple[yaml.Node, bool]] = [(root, False)]
    open_nodes: set[int] = set()
    while stack:
        node, done = stack.pop()
        if id(node) in sizes:
            continue
        children = ([n for pair in node.value for n in pair] if isinstance(node, yaml.MappingNode)
                    else node.value if isinstance(node, yaml.SequenceNode) else [])
        if done:
            open_nodes.discard(id(node))
            sizes[id(node)] = min(1 + sum(sizes[id(child)] for child in children), MAX_NODES + 1)
            continue
        if id(node) in open_nodes:
            raise _Refused(node.start_mark.line + 1, "", "an alias refers to its own anchor (a recursive "
                                                         "structure); write the values out")
        open_nodes.add(id(node))
        stack.append((node, True))
        stack.extend((child, False) for child in children if id(child) not in sizes)
    return sizes


def _walk(node: yaml.Node, loc: tuple, lines: dict[str, int]) -> None:
    """Record the line of every key path; refuse duplicate keys."""
    lines[key_path(loc)] = node.start_mark.line + 1
    if isinstance(node, yaml.MappingNode):
        seen: dict[Any, int] = {}
        for key_node, value_node in node.value:
            if isinstance(key_node, yaml.ScalarNode) and key_node.tag != "tag:yaml.org,2002:merge":
                line = key_node.start_mark.line + 1
                if key_node.value in seen:
                    where = key_path(loc + (key_node.value,))
                    raise _Refused(line, where, f"duplicate key {key_node.value!r} (first at line "
                                                f"{seen[key_node.value]}); YAML keeps only the last, so "
                                                "merge the two or delete one")
                seen[key_node.value] = line
            child = loc + (key_node.value,)
            _walk(value_node, child, lines)
            lines[key_path(child)] = key_node.start_mark.line + 1
    elif isinstance(node, yaml.SequenceNode):
        for index, item in enumerate(node.value):
            _walk(item, loc + (index,), lines)


def _check_expansion(root: yaml.Node) -> None:
    sizes = _expanded_sizes(root)
    if sizes[id(root)] <= MAX_NODES:
        return
    worst = root
    if isinstance(root, yaml.MappingNode) and root.value:
        key, worst = max(root.value, key=lambda pair: sizes[id(pair[1])])
        where = str(key.value)
    else:
        where = ""
    raise _Refused(worst.start_mark.line + 1, where,
                   f"expands to more than {MAX_NODES:,} values (the limit): aliases (*name) repeat an "
                   "anchor's content; write the values out or use fewer aliases")


def _json_lines(text: str) -> str | None:
    """What a file of JSON lines (YAML cannot parse more than one JSON object) says it is, from
    its first line's ``format`` and ``scene``, or None when its first line is not a JSON object."""
    try:
        first = json.loads(text.lstrip().split("\n", 1)[0])
    except ValueError:
        return None
    if not isinstance(first, dict):
        return None
    said = [f"{key} {first[key]!r}" for key in ("format", "scene") if isinstance(first.get(key), str)]
    return ("not YAML but JSON lines" + (f" (its first line says {', '.join(said)})" if said else "")
            + "; give a YAML file here" + (", such as that scene" if "scene" in first else ""))


def read_yaml_with_lines(path: Path, error_class=SceneError) -> tuple[Any, dict[str, int]]:
    """Parse a YAML file strictly; return the data and a map from key path to 1-based line number.

    Refused, each with the line, the key path and the fix: a file over MAX_FILE_BYTES, nesting
    deeper than MAX_DEPTH, duplicate keys at any level (YAML would silently keep the last), and
    aliases that expand past MAX_NODES values or refer to themselves."""
    try:
        size = path.stat().st_size
        if size > MAX_FILE_BYTES:
            raise error_class(path, [("", None, f"file is {size / 1e6:.1f} MB, over the {MAX_FILE_BYTES / 1e6:.1f} MB "
                                                "limit for a scene or rules file; is it the right file?")])
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise error_class(path, [("", None, "file not found")]) from None
    except (IsADirectoryError, PermissionError, UnicodeDecodeError, OSError) as error:
        raise error_class(path, [("", None, f"cannot read: {error}")]) from None
    lines: dict[str, int] = {}
    try:
        aliased, nodes = _check_depth(text)
        root = yaml.compose(text, Loader=_LOADER)
        if root is None:
            return None, lines
        if aliased or nodes > MAX_NODES:  # else it expands to its own nodes: within the limit
            _check_expansion(root)
        _walk(root, (), lines)
        loader = yaml.SafeLoader("")
        try:
            data = loader.construct_document(root)
        finally:
            loader.dispose()
    except _Refused as refused:
        raise error_class(path, [(refused.path, refused.line, refused.message)]) from None
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        line = mark.line + 1 if mark is not None else None
        problem = getattr(error, "problem", None) or str(error)
        json_lines = _json_lines(text)
        if json_lines is not None:
            raise error_class(path, [("", 1, json_lines)]) from None
        raise error_class(path, [("", line, f"not valid YAML: {problem}")]) from None
    except (RecursionError, ValueError, TypeError, OverflowError) as error:
        raise error_class(path, [("", None, f"not valid YAML: {type(error).__name__}: {error}")]) from None
    return data, lines


def line_of(lines: dict[str, int], path: str) -> int | None:
    """The line of ``path`` or of its nearest parent that has one."""
    while path:
        if path in lines:
            return lines[path]
        cut = max(path.rfind("."), path.rfind("["))
        path = path[:cut] if cut > 0 else ""
    return None
