"""Keys out of text: the run's configured secrets and anything shaped like a key.

A model can echo a key back (told to by an injected prompt, or just misbehaving), and a proxy can put the
request's headers in an error body. The gateway runs every text that comes from outside through one
`Redactor` before anything else sees it, and the call log runs its whole record through the same one.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

REDACTED = "[redacted]"
# Key shapes worth catching even when they are not ours (a proxy's own token, a key pasted into a
# prompt): OpenAI/Anthropic style secret keys, bearer tokens and api-key headers or variables. The first
# group, when there is one, is kept so the text still says what was there.
KEY_PATTERNS = (
    re.compile(r"sk-[A-Za-z0-9_\-]{12,}"),
    re.compile(r"(?i)(bearer\s+)[A-Za-z0-9._\-]{12,}"),
    re.compile(r"""(?i)((?:x-)?api[_-]?key["']?\s*[:=]\s*["']?)[A-Za-z0-9._\-]{12,}"""),
)
SHORTEST_SECRET = 6  # shorter "secrets" (test values, "none") would redact ordinary words
# What may sit between two characters of an echoed key: a model wrapping a long string splits it with
# spaces or line breaks, raw (in plain text) or escaped (inside a JSON string).
GAP = r"(?:\s|\\[nrt])*"
JSON_SHORT_ESCAPES = frozenset('"\\/')


class Redactor:
    def __init__(self, secrets: Iterable[str]) -> None:
        self.secrets = tuple(sorted({s for s in secrets if len(s) >= SHORTEST_SECRET}, key=len, reverse=True))
        self._echoes = tuple(echo_pattern(secret) for secret in self.secrets)

    def text(self, value: str) -> str:
        for pattern in self._echoes:
            value = pattern.sub(REDACTED, value)
        for pattern in KEY_PATTERNS:
            value = pattern.sub(_keep_label, value)
        return value

    def data(self, value: Any) -> Any:
        if isinstance(value, str):
            return self.text(value)
        if isinstance(value, dict):
            return {key: self.data(item) for key, item in value.items()}
        if isinstance(value, list | tuple):
            return [self.data(item) for item in value]
        return value


def echo_pattern(secret: str) -> re.Pattern[str]:
    """Matches `secret` as a model or a server could echo it: verbatim, JSON-escaped character by character
    (so the parsed answer cannot rebuild it), and split by whitespace or escaped line breaks."""
    return re.compile(GAP.join(_char_forms(char) for char in secret))


def _char_forms(char: str) -> str:
    hex_digits = f"{ord(char):04x}"
    # \u escapes may spell their hex digits in either case.
    unicode_escape = r"\\u" + "".join(f"[{d}{d.upper()}]" if d.isalpha() else d for d in hex_digits)
    forms = [re.escape(char), unicode_escape]
    if char in JSON_SHORT_ESCAPES:
        forms.append(re.escape("\\" + char))
    return "(?:" + "|".join(forms) + ")"


def _keep_label(match: re.Match[str]) -> str:
    return (match.group(1) if match.groups() else "") + REDACTED
