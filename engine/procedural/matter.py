"""The small front matter of a skill file, read and written here (no YAML: a skill's fields are a few
`key: value` lines between two `---` lines, and a model writes them as often as a person does).

    ---
    name: leave-a-menu
    screen: menu
    map: any
    ---
    Press b until the menu closes.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from engine.procedural.errors import ProceduralError

FENCE = "---"
_KEY = re.compile(r"[a-z][a-z0-9_]{0,31}")
MAX_KEYS = 16


class FrontMatterError(ProceduralError):
    """The text does not start with a readable front matter; the message says what is wrong."""


def parse(text: str) -> tuple[dict[str, str], str]:
    """The front matter's fields (keys in lower case, values stripped, one pair of quotes around a value
    dropped) and the body after it (stripped). Blank lines and `#` comments inside are skipped."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").lstrip("\ufeff").strip().split("\n")
    if not lines or lines[0].strip() != FENCE:
        raise FrontMatterError(f"no front matter: the text must start with a {FENCE} line")
    try:
        end = next(index for index, line in enumerate(lines[1:], 1) if line.strip() == FENCE)
    except StopIteration:
        raise FrontMatterError(f"the front matter has no closing {FENCE} line") from None
    fields: dict[str, str] = {}
    for line in lines[1:end]:
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        key, colon, value = line.partition(":")
        key = key.strip().lower()
        if not colon or not _KEY.fullmatch(key):
            raise FrontMatterError(f"not a `key: value` line in the front matter: {line.strip()[:60]!r}")
        if key in fields:
            raise FrontMatterError(f"{key!r} appears twice in the front matter")
        fields[key] = _unquote(value.strip())
        if len(fields) > MAX_KEYS:
            raise FrontMatterError(f"more than {MAX_KEYS} keys in the front matter")
    return fields, "\n".join(lines[end + 1 :]).strip()


def _unquote(value: str) -> str:
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
        return value[1:-1].strip()
    return value


def render(fields: Sequence[tuple[str, str | int]], body: str) -> str:
    head = "\n".join(f"{key}: {value}" for key, value in fields)
    return f"{FENCE}\n{head}\n{FENCE}\n{body.strip()}\n"
