"""The injection screen: text a model will read later (lessons, a model's own notes, skills) must not
carry an attempt to steer that model. One screen for all of them, here, below the roles that write them.

A filter that matches English on raw text is defeated by text a model reads the same way but a regular
expression does not: look-alike letters from other scripts ("Ignоre" with a Cyrillic о), invisible
characters inside words (zero-width spaces, soft hyphens), fullwidth or other compatibility forms
("＜system＞"), letters spaced or hyphenated apart ("I g n o r e", "instruc-tions") or dotted apart
("ignore. previous. instructions"). Two forms undo that:

- `plain`: NFKC, invisible characters and accents removed, look-alikes folded to Latin, brackets, pipes
  and colons folded to ASCII, lower case. Layout (spaces, dots, slashes, lines) stays, so patterns that
  need structure (URLs, role tags, role prefixes) match here.
- `collapsed`: `plain` with digits read as the letters they stand in for ("1gn0re") and every separator
  dropped, so spaced, hyphenated and dotted words join up ("ignorepreviousinstructions", "systemprompt").
  Only the few characters that role tags and special tokens are made of survive.

`injection(text)` runs INJECTION_PATTERNS on the plain form and COLLAPSED_PATTERNS on the collapsed one,
and names the first that matches. All functions are pure: same text in, same text out.
"""

from __future__ import annotations

import re
import unicodedata

# Letters from other scripts that are drawn like Latin ones, after the idea of Unicode TR39's confusables
# data (https://www.unicode.org/reports/tr39/), cut down to the Cyrillic, Greek, Armenian and small-capital
# letters that pass for a Latin letter in ordinary fonts. Capitals map to capitals: some shapes differ by
# case (Greek Η is an H, η an n; Ν is an N, ν a v), and lower-casing comes after folding.
_LOOKALIKE_NAMES: dict[str, str] = {
    "CYRILLIC CAPITAL LETTER A": "A", "CYRILLIC SMALL LETTER A": "a",
    "CYRILLIC CAPITAL LETTER VE": "B", "CYRILLIC SMALL LETTER VE": "b",
    "CYRILLIC CAPITAL LETTER IE": "E", "CYRILLIC SMALL LETTER IE": "e",
    "CYRILLIC CAPITAL LETTER KA": "K", "CYRILLIC SMALL LETTER KA": "k",
    "CYRILLIC CAPITAL LETTER EM": "M", "CYRILLIC SMALL LETTER EM": "m",
    "CYRILLIC CAPITAL LETTER EN": "H", "CYRILLIC SMALL LETTER EN": "h",
    "CYRILLIC CAPITAL LETTER O": "O", "CYRILLIC SMALL LETTER O": "o",
    "CYRILLIC CAPITAL LETTER ER": "P", "CYRILLIC SMALL LETTER ER": "p",
    "CYRILLIC CAPITAL LETTER ES": "C", "CYRILLIC SMALL LETTER ES": "c",
    "CYRILLIC CAPITAL LETTER TE": "T", "CYRILLIC SMALL LETTER TE": "t",
    "CYRILLIC CAPITAL LETTER U": "Y", "CYRILLIC SMALL LETTER U": "y",
    "CYRILLIC CAPITAL LETTER HA": "X", "CYRILLIC SMALL LETTER HA": "x",
    "CYRILLIC CAPITAL LETTER SOFT SIGN": "b", "CYRILLIC SMALL LETTER SOFT SIGN": "b",
    "CYRILLIC CAPITAL LETTER DZE": "S", "CYRILLIC SMALL LETTER DZE": "s",
    "CYRILLIC CAPITAL LETTER BYELORUSSIAN-UKRAINIAN I": "I",
    "CYRILLIC SMALL LETTER BYELORUSSIAN-UKRAINIAN I": "i",
    "CYRILLIC CAPITAL LETTER JE": "J", "CYRILLIC SMALL LETTER JE": "j",
    "CYRILLIC CAPITAL LETTER SHHA": "H", "CYRILLIC SMALL LETTER SHHA": "h",
    "CYRILLIC CAPITAL LETTER KOMI DE": "D", "CYRILLIC SMALL LETTER KOMI DE": "d",
    "CYRILLIC CAPITAL LETTER QA": "Q", "CYRILLIC SMALL LETTER QA": "q",
    "CYRILLIC CAPITAL LETTER WE": "W", "CYRILLIC SMALL LETTER WE": "w",
    "CYRILLIC LETTER PALOCHKA": "I", "CYRILLIC SMALL LETTER PALOCHKA": "l",
    "GREEK CAPITAL LETTER ALPHA": "A", "GREEK SMALL LETTER ALPHA": "a",
    "GREEK CAPITAL LETTER BETA": "B", "GREEK SMALL LETTER BETA": "b",
    "GREEK CAPITAL LETTER EPSILON": "E", "GREEK SMALL LETTER EPSILON": "e",
    "GREEK CAPITAL LETTER ZETA": "Z",
    "GREEK CAPITAL LETTER ETA": "H", "GREEK SMALL LETTER ETA": "n",
    "GREEK CAPITAL LETTER IOTA": "I", "GREEK SMALL LETTER IOTA": "i",
    "GREEK CAPITAL LETTER KAPPA": "K", "GREEK SMALL LETTER KAPPA": "k",
    "GREEK CAPITAL LETTER MU": "M", "GREEK SMALL LETTER MU": "u",
    "GREEK CAPITAL LETTER NU": "N", "GREEK SMALL LETTER NU": "v",
    "GREEK CAPITAL LETTER OMICRON": "O", "GREEK SMALL LETTER OMICRON": "o",
    "GREEK CAPITAL LETTER RHO": "P", "GREEK SMALL LETTER RHO": "p",
    "GREEK CAPITAL LETTER TAU": "T", "GREEK SMALL LETTER TAU": "t",
    "GREEK CAPITAL LETTER UPSILON": "Y", "GREEK SMALL LETTER UPSILON": "u",
    "GREEK CAPITAL LETTER CHI": "X", "GREEK SMALL LETTER CHI": "x",
    "GREEK SMALL LETTER OMEGA": "w",
    "GREEK CAPITAL LUNATE SIGMA SYMBOL": "C", "GREEK LUNATE SIGMA SYMBOL": "c",
    "ARMENIAN SMALL LETTER HO": "h", "ARMENIAN SMALL LETTER VO": "n", "ARMENIAN SMALL LETTER SEH": "u",
    "ARMENIAN SMALL LETTER OH": "o",
    "LATIN SMALL LETTER DOTLESS I": "i", "LATIN SMALL LETTER DOTLESS J": "j",
    "LATIN SMALL LETTER ALPHA": "a", "LATIN SMALL LETTER SCRIPT G": "g", "LATIN SMALL LETTER IOTA": "i",
    "LATIN LETTER SMALL CAPITAL A": "a", "LATIN LETTER SMALL CAPITAL B": "b",
    "LATIN LETTER SMALL CAPITAL C": "c", "LATIN LETTER SMALL CAPITAL D": "d",
    "LATIN LETTER SMALL CAPITAL E": "e", "LATIN LETTER SMALL CAPITAL G": "g",
    "LATIN LETTER SMALL CAPITAL H": "h", "LATIN LETTER SMALL CAPITAL I": "i",
    "LATIN LETTER SMALL CAPITAL J": "j", "LATIN LETTER SMALL CAPITAL K": "k",
    "LATIN LETTER SMALL CAPITAL L": "l", "LATIN LETTER SMALL CAPITAL M": "m",
    "LATIN LETTER SMALL CAPITAL N": "n", "LATIN LETTER SMALL CAPITAL O": "o",
    "LATIN LETTER SMALL CAPITAL P": "p", "LATIN LETTER SMALL CAPITAL R": "r",
    "LATIN LETTER SMALL CAPITAL S": "s", "LATIN LETTER SMALL CAPITAL T": "t",
    "LATIN LETTER SMALL CAPITAL U": "u", "LATIN LETTER SMALL CAPITAL V": "v",
    "LATIN LETTER SMALL CAPITAL W": "w", "LATIN LETTER SMALL CAPITAL Y": "y",
    "LATIN LETTER SMALL CAPITAL Z": "z",
}  # fmt: skip

# Punctuation NFKC leaves alone but a model reads as the ASCII one: the brackets of "‹system›", the pipes
# of "<｜im_start｜>", the colon of "system꞉". Folding them lets one pattern cover all spellings.
_PUNCTUATION_NAMES: dict[str, str] = {
    "SINGLE LEFT-POINTING ANGLE QUOTATION MARK": "<", "SINGLE RIGHT-POINTING ANGLE QUOTATION MARK": ">",
    "LEFT-POINTING DOUBLE ANGLE QUOTATION MARK": "<", "RIGHT-POINTING DOUBLE ANGLE QUOTATION MARK": ">",
    "LEFT ANGLE BRACKET": "<", "RIGHT ANGLE BRACKET": ">",
    "LEFT DOUBLE ANGLE BRACKET": "<", "RIGHT DOUBLE ANGLE BRACKET": ">",
    "MATHEMATICAL LEFT ANGLE BRACKET": "<", "MATHEMATICAL RIGHT ANGLE BRACKET": ">",
    "MODIFIER LETTER LEFT ARROWHEAD": "<", "MODIFIER LETTER RIGHT ARROWHEAD": ">",
    "CANADIAN SYLLABICS PA": "<", "CANADIAN SYLLABICS PO": ">",
    "LATIN LETTER DENTAL CLICK": "|", "DIVIDES": "|", "BOX DRAWINGS LIGHT VERTICAL": "|",
    "MODIFIER LETTER COLON": ":", "RATIO": ":", "ARMENIAN FULL STOP": ":",
    "DIVISION SLASH": "/", "FRACTION SLASH": "/",
    "IDEOGRAPHIC FULL STOP": ".",
    "MODIFIER LETTER GRAVE ACCENT": "`", "REVERSED PRIME": "`",
}  # fmt: skip

_FOLD = str.maketrans({unicodedata.lookup(name): latin for name, latin in _LOOKALIKE_NAMES.items()} | {
    unicodedata.lookup(name): ascii_ for name, ascii_ in _PUNCTUATION_NAMES.items()
})  # fmt: skip

# Characters that draw nothing yet are not format characters: Hangul and Braille fillers. Variation
# selectors and the combining grapheme joiner are marks and go with the accents.
_BLANKS = frozenset("\u115f\u1160\u3164\uffa0\u2800")

# Digits written for the letters they look like ("1gn0re", "5ystem"), read as letters in the collapsed
# form only: in `plain` a digit stays a number (levels, percentages, counts).
_DIGIT_LETTERS = str.maketrans(
    {"0": "o", "1": "i", "3": "e", "4": "a", "5": "s", "7": "t", "@": "a", "$": "s"}
)

# What survives collapsing besides letters: the characters role tags, special tokens, role prefixes and
# code fences are built from. "~" is not among them: "~40%, ~30%, ~20%" would collapse into a fence.
_COLLAPSE_KEEP = "<>|:/`"
_COLLAPSE_DROP = re.compile(rf"[^a-z{re.escape(_COLLAPSE_KEEP)}]+")


def strip_invisible(text: str) -> str:
    """`text` without the characters that separate letters invisibly: format characters (category Cf:
    zero-width spaces and joiners, word joiner, byte-order mark, soft hyphen, direction marks), fillers that
    draw nothing, and combining marks (accents, variation selectors), which only decorate a letter a
    pattern already knows ("ignóre" reads as "ignore"). Unusual spaces and line breaks become plain ones."""
    kept = []
    for char in unicodedata.normalize("NFD", text):
        category = unicodedata.category(char)
        if category == "Cf" or category.startswith("M") or char in _BLANKS:
            continue
        kept.append({"Zs": " ", "Zl": "\n", "Zp": "\n"}.get(category, char))
    return unicodedata.normalize("NFC", "".join(kept))


def fold_lookalikes(text: str) -> str:
    """`text` with look-alike letters (Cyrillic, Greek, small capitals) and punctuation read as the Latin
    and ASCII characters they pass for, so "Ignоre" with a Cyrillic о is the English word."""
    return text.translate(_FOLD)


def plain(text: str) -> str:
    """The text as a reader sees it, in one spelling: NFKC (fullwidth and other compatibility forms become
    ASCII: "＜system＞" is "<system>"), invisible characters and accents removed, look-alikes folded,
    lower case. Spaces, dots and lines stay where they were."""
    return fold_lookalikes(strip_invisible(unicodedata.normalize("NFKC", text))).lower()


def collapsed(text: str) -> str:
    """The letters of `plain(text)` with nothing between them: "I g n o r e. previous instruc-tions"
    becomes "ignorepreviousinstructions". Digits that stand in for letters count as those letters; other
    digits and all separators go, except the few characters role tags and special tokens are made of."""
    return _COLLAPSE_DROP.sub("", plain(text).translate(_DIGIT_LETTERS))


# What a lesson, a model's notes or a skill must never contain. Each is a phrase or shape used to hijack a
# model reading the text; none has a place in text about playing a Pokémon game. Matched on `plain` text
# (one spelling: look-alikes, invisible characters and fullwidth forms undone, lower case), where spaces,
# dots and lines still show the structure URLs, role tags and prefixes need.
_DOT = r"(?:\.|\[\.\]|\(\.\)|\[dot\]|\(dot\))"  # "evil[.]com" is still an address to a model
# Top-level domains that look like an address when dotted onto a word. English words that are also domains
# ("to", "me", "us", "in", "so") are left out: "win.So" is a missing space far more often than a host.
_TLDS = (
    r"com|org|net|edu|gov|mil|info|biz|io|ai|app|dev|xyz|site|online|top|club|shop|store|tech|link|click"
    r"|live|ru|cn|uk|de|fr|jp|nl|br|au|su|tk|ml|ga|cf|gq|cc|tv|ly|gg|sh|ws|pw|zip|onion"
)
INJECTION_PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (name, re.compile(pattern, re.IGNORECASE | re.MULTILINE))
    for name, pattern in (
        # "ignore previous instructions", "disregard all prior rules", "forget your instructions"; not
        # "ignore the rule-based estimate"
        ("an instruction to ignore instructions",
         r"\b(?:ignore|disregard|forget|override|bypass|disobey)\b[^.\n]{0,40}?"
         r"\b(?:instructions?|prompts?|rules?|directions?|guidelines?|directives?)\b(?!-)"),
        ("a mention of the system prompt", r"\bsys(?:tem)?[\s_-]*prompts?\b"),
        ("a new identity (\"you are now\")",
         r"\byou\s+are\s+now\b|\bpretend\s+(?:to\s+be|you\s+are)\b"
         r"|\bact\s+as\s+(?:an?\s+|the\s+)?(?:ai|assistant|chatbot|language\s+model)\b"),
        ("new instructions", r"\b(?:new|updated|real|hidden|secret|true)\s+(?:instructions?|directives?)\b"),
        ("a role tag",
         r"<\s*/?\s*(?:system|assistant|user|human|developer|tool|im_start|im_end)\b[^>]*>"
         r"|\[\s*/?\s*(?:system|assistant|developer)\s*\]"),
        # At a line's start any role; mid-line only the roles no lesson speaks of, when text follows them
        # ("the user of BUBBLE" is the Pokémon, so "user:" counts only where a sentence starts).
        ("a role prefix",
         r"^\s*(?:system|assistant|user|human|developer|tool)\s*:"
         r"|\b(?:system|assistant|developer)\s*:\s*\S|[.!?;]\s*(?:user|human)\s*:\s*\S"),
        # With a scheme, "www.", a dotted host on a known-looking domain, a dotted host with a path, an IP
        # address or an e-mail address: each sends a model somewhere.
        ("a URL",
         rf"\b(?:https?|ftps?|file)\s*:\s*/\s*/|\bhxxps?\b|\bwww\d?{_DOT}"
         rf"|\b(?:[a-z0-9-]+{_DOT})+(?:{_TLDS})\b|\b[a-z0-9-]+(?:{_DOT}[a-z0-9-]+)*{_DOT}[a-z]{{2,}}/\w"
         r"|\b\d{1,3}(?:\.\d{1,3}){3}\b|\b[\w.+-]+@[a-z0-9-]+\.[a-z]{2,}"),
        ("a code fence", r"`\s*`\s*`|~\s*~\s*~"),
        ("a special token",
         r"<\s*\|[^|>\n]*\|\s*>|<\s*/?\s*s\s*>|<<\s*/?\s*sys\s*>>|\[\s*/?\s*inst\s*\]"
         r"|<\s*/?\s*(?:start|end)_of_(?:turn|text)\s*>"),
    )
)  # fmt: skip

# The same dangers in the collapsed letters (separators gone, so "I g n o r e. previous instruc-tions" is
# "ignorepreviousinstructions"). Word boundaries are gone too, so each pattern is a run of letters no
# ordinary lesson writes, and the window between two trigger words is bounded.
COLLAPSED_PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (name, re.compile(pattern))
    for name, pattern in (
        ("an instruction to ignore instructions",
         r"(?:ignore|disregard|forget|override|bypass|disobey)[a-z:/]{0,40}?"
         r"(?:instructions?|prompts?(?!ly)|guidelines?|directives?|rules(?!based))"),
        ("a mention of the system prompt", r"systemprompt"),
        ("a new identity (\"you are now\")",
         r"youarenow(?!here)|pretendtobe|pretendyouare|actas(?:an?|the)?(?:assistant|chatbot|languagemodel)"),
        ("new instructions", r"(?:new|updated|real|hidden|secret)instructions?"),
        ("a role tag", r"</?(?:system|assistant|user|human|developer|tool|imstart|imend)>"),
        ("a role prefix", r"(?:system|assistant|developer):[a-z<]|\A(?:user|human|tool):"),
        ("a URL", r"(?:https?|ftp):/"),  # not "file": "profile: 2/3" collapses to "profile:/"
        ("a code fence", r"```"),
        ("a special token", r"<\|[a-z:/]{0,30}\|>"),
    )
)  # fmt: skip


def injection(text: str) -> str | None:
    """The first injection pattern the text matches, by name: on its plain form first (structure), then
    on its collapsed letters (words spaced, dotted or hyphenated apart)."""
    for form, patterns in ((plain(text), INJECTION_PATTERNS), (collapsed(text), COLLAPSED_PATTERNS)):
        for name, pattern in patterns:
            if pattern.search(form):
                return f"looks like prompt injection: {name}"
    return None


# Characters no note or skill needs and a terminal or a parser may act on: C0 and C1 controls (escape
# sequences, NUL), but for tab and line breaks.
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")


def control_character(text: str) -> str | None:
    """Why the text holds a control character (by its code point), or None."""
    if found := _CONTROL.search(text):
        return f"a control character (U+{ord(found.group()):04X})"
    return None


def screen(text: str) -> str | None:
    """Why a model's own text (notes, a skill) may not be kept: a control character or what `injection`
    finds; None when it passes."""
    return control_character(text) or injection(text)
