"""The app's message for each known library error, in the reader's language (one place).

The library's ``ValueError`` messages stay English: they are API, and tests and scripts match
them. The app shows :func:`error_text` of an error instead: each known message (a pattern here)
becomes its translated sentence, with the pattern's named parts put back in; parts named
``problem`` are themselves library messages and are translated the same way, parts named
``fallback`` are one of the short phrases marked below. An unknown message is shown as it is.

>>> from ndcg_core.i18n import set_language
>>> set_language("zh")
>>> error_text(ValueError("entry 2 ('two') is not a number; write a grade such as 2 or 0.5, or label:grade"))
"第 2 项（'two'）不是数字；请写一个等级，例如 2 或 0.5，或写成 名称:等级"
>>> set_language("en")
>>> error_text("some new message")
'some new message'
"""

from __future__ import annotations

import re

from .i18n import N_, _

__all__ = ["KNOWN_ERRORS", "error_text"]

#: Phrases a share-link warning names as what is used instead (translated where shown).
FALLBACKS = (
    N_("the default example"),
    N_("the order as given"),
    N_("no extra judged items"),
    N_("linear gain"),
    N_("the formula above"),
    N_("the whole list"),
)

_EXAMPLE_RE = re.escape("type a number such as 0.82, or arithmetic such as 3 + 2/1.585")

#: (pattern of the English library message, its message for the reader). The patterns match the
#: whole message; their named groups fill the message's placeholders.
KNOWN_ERRORS: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(pattern, re.DOTALL), message)
    for pattern, message in (
        # share links (ndcg_core.teaching.playground.from_query_params): the problem and fallback inside
        (
            r"Share link parameter '(?P<key>[^']+)': (?P<problem>.*); using (?P<fallback>.*) instead\.",
            N_("Share link parameter '{key}': {problem}; using {fallback} instead."),
        ),
        # typed or pasted lists (ndcg_core.teaching.playground)
        (
            r"entry (?P<n>\d+) \((?P<text>.*)\) is not a number; "
            r"write a grade such as 2 or 0\.5, or label:grade",
            N_("entry {n} ({text}) is not a number; write a grade such as 2 or 0.5, or label:grade"),
        ),
        (
            r"entry (?P<n>\d+) \((?P<text>.*)\) is not a finite number",
            N_("entry {n} ({text}) is not a finite number"),
        ),
        (r"(?P<a>\d+) labels for (?P<b>\d+) grades", N_("{a} labels for {b} grades")),
        (r"(?P<a>\d+) labels for (?P<b>\d+) pool grades", N_("{a} labels for {b} pool grades")),
        (r"(?P<a>\d+) scores for (?P<b>\d+) grades", N_("{a} scores for {b} grades")),
        (r"no gain for grade (?P<g>\S+) in the table", N_("no gain for grade {g} in the table")),
        (
            r"it is not a link this app wrote \(cannot be decoded\)",
            N_("it is not a link this app wrote (cannot be decoded)"),
        ),
        (r"it does not hold share-link parameters", N_("it does not hold share-link parameters")),
        (
            r"the file is not a playground state \(not JSON\)",
            N_("the file is not a playground state (not JSON)"),
        ),
        (
            r"the file is not a playground state saved by this app",
            N_("the file is not a playground state saved by this app"),
        ),
        # formula choices (ndcg_core.variants, ndcg_core.presets)
        (
            r"(?P<text>.*) is not a whole number of at least 1",
            N_("{text} is not a whole number of at least 1"),
        ),
        (
            r"(?P<value>\S+) is above the largest cutoff, (?P<max>\S+)",
            N_("{value} is above the largest cutoff, {max}"),
        ),
        (r"(?P<text>.*) is not a number above 1 \(or e\)", N_("{text} is not a number above 1 (or e)")),
        (
            r"(?P<text>.*) is not one of (?P<allowed>.*) or a grade:gain table such as 0:0,1:1,2:3",
            N_("{text} is not one of {allowed} or a grade:gain table such as 0:0,1:1,2:3"),
        ),
        (r"(?P<text>.*) is not one of (?P<allowed>.*)", N_("{text} is not one of {allowed}")),
        (
            r"log_base must be a finite number greater than 1, got (?P<value>.*)",
            N_("the log base must be a finite number greater than 1, got {value}"),
        ),
        (
            r"gain table entry (?P<n>\d+) \((?P<text>.*)\) is not of the form grade:gain, e\.g\. 2:3",
            N_("gain table entry {n} ({text}) is not of the form grade:gain, e.g. 2:3"),
        ),
        (
            r"gain table entry (?P<n>\d+) \((?P<text>.*)\) must use finite numbers",
            N_("gain table entry {n} ({text}) must use finite numbers"),
        ),
        (
            r"the gain table is empty: give grade:gain pairs such as 0:0,1:1,2:3",
            N_("the gain table is empty: give grade:gain pairs such as 0:0,1:1,2:3"),
        ),
        (
            r"grade (?P<g>\S+) has no gain in the table; add an entry such as (?P<entry>\S+)",
            N_("grade {g} has no gain in the table; add an entry such as {entry}"),
        ),
        (r"unknown preset (?P<name>'[^']*')(?:; choose one of .*)?", N_("unknown preset {name}")),
        # data-set files (ndcg_core.dataset): the file's name comes first
        (
            r"(?P<name>.*): not UTF-8 text \(byte (?P<byte>\d+)\): is this a text file\?",
            N_("{name}: not UTF-8 text (byte {byte}): is this a text file?"),
        ),
        (
            r"(?P<name>.*) is empty: expected (?P<kind>\w+) lines such as '(?P<trec>.*)' "
            r"or a CSV/TSV table with a header \((?P<columns>.*)\)",
            N_(
                "{name} is empty: expected {kind} lines such as '{trec}' "
                "or a CSV/TSV table with a header ({columns})"
            ),
        ),
        (
            r"(?P<name>.*): line (?P<line>\d+) has (?P<n>\d+) fields; a TREC qrels line has 4 "
            r"\(query iteration doc grade\): ids cannot contain spaces",
            N_(
                "{name}: line {line} has {n} fields; a TREC qrels line has 4 (query iteration doc grade): "
                "ids cannot contain spaces"
            ),
        ),
        (
            r"(?P<name>.*): line (?P<line>\d+) has fewer than (?P<n>\d+) fields "
            r"\(TREC (?P<kind>\w+) format\)",
            N_("{name}: line {line} has fewer than {n} fields (TREC {kind} format)"),
        ),
        (
            r"(?P<name>.*): line (?P<line>\S+): the rank (?P<rank>.*) is not a number "
            r"\(TREC run lines are 'query Q0 doc rank score tag'; ids cannot contain spaces\)",
            N_(
                "{name}: line {line}: the rank {rank} is not a number (TREC run lines are "
                "'query Q0 doc rank score tag'; ids cannot contain spaces)"
            ),
        ),
        (
            r"(?P<name>.*): found a single column (?P<column>.*): the delimiter was not recognised\. "
            r"Use commas, tabs, semicolons or spaces between (?P<columns>.*), or TREC format",
            N_(
                "{name}: found a single column {column}: the delimiter was not recognised. "
                "Use commas, tabs, semicolons or spaces between {columns}, or TREC format"
            ),
        ),
        (r"(?P<name>.*) has a header but no data rows", N_("{name} has a header but no data rows")),
        (
            r"(?P<name>.*): line (?P<line>\d+) has an empty (?P<what>.*); every row needs both ids",
            N_("{name}: line {line} has an empty {what}; every row needs both ids"),
        ),
        (
            r"(?P<what>.*) needs columns (?P<columns>.*); missing (?P<missing>.*) "
            r"\(accepted names, any case: (?P<hints>.*)\); found (?P<found>.*)",
            N_(
                "{what} needs columns {columns}; missing {missing} "
                "(accepted names, any case: {hints}); found {found}"
            ),
        ),
        (
            r"(?P<table>.*): (?P<what>\w+) on (?P<row>.*) is (?P<value>.*), expected a finite number "
            r"\((?P<n>\d+) such rows\)",
            N_("{table}: {what} on {row} is {value}, expected a finite number ({n} such rows)"),
        ),
        (
            r"(?P<table>.*): (?P<what>\w+) on (?P<row>.*) is (?P<value>.*), expected a finite number",
            N_("{table}: {what} on {row} is {value}, expected a finite number"),
        ),
        # Class mode (ndcg_core.classroom): questions that cannot be asked, answers that cannot be taken
        (
            r"the playground's formula uses a gain table or discount that class questions cannot state",
            N_("the playground's formula uses a gain table or discount that class questions cannot state"),
        ),
        (
            r"a class question needs 2 to (?P<n>\d+) items, each with a label",
            N_("a class question needs 2 to {n} items, each with a label"),
        ),
        (
            r"the items' labels must differ, so an order can name them",
            N_("the items' labels must differ, so an order can name them"),
        ),
        (
            r"at least one item must be relevant \(grade above 0\)",
            N_("at least one item must be relevant (grade above 0)"),
        ),
        (r"Type a number\.", N_("Type a number.")),
        (r"Give every item once, in your order\.", N_("Give every item once, in your order.")),
        (r"That answer is too long\.", N_("That answer is too long.")),
        # typed answers (ndcg_core.teaching.answers): the hint after the colon is the shared example
        (
            r"(?P<problem>.*): " + _EXAMPLE_RE,
            N_("{problem}: type a number such as 0.82, or arithmetic such as 3 + 2/1.585"),
        ),
        (r"only numbers can be used", N_("only numbers can be used")),
        (r"the arithmetic divides by zero", N_("the arithmetic divides by zero")),
        (
            r"exponent (?P<e>\S+) is too large: powers up to (?P<max>\d+) are allowed",
            N_("exponent {e} is too large: powers up to {max} are allowed"),
        ),
        (
            r"a negative number cannot be raised to a fractional power",
            N_("a negative number cannot be raised to a fractional power"),
        ),
        (
            r"functions such as log2\(\.\.\.\) cannot be used: type their value instead "
            r"\(for example 1\.585 for log2\(3\)\)",
            N_(
                "functions such as log2(...) cannot be used: type their value instead "
                "(for example 1.585 for log2(3))"
            ),
        ),
        (
            r"names with a dot \(like math\.pi\) cannot be used",
            N_("names with a dot (like math.pi) cannot be used"),
        ),
        (r"'(?P<name>.*)' is a name, not a number", N_("'{name}' is a name, not a number")),
        (
            r"only numbers, \+ - \* / \^ and parentheses can be used",
            N_("only numbers, + - * / ^ and parentheses can be used"),
        ),
        (r"the answer is empty", N_("the answer is empty")),
        (
            r"the answer is too long \((?P<n>\d+) characters, at most (?P<max>\d+)\)",
            N_("the answer is too long ({n} characters, at most {max})"),
        ),
        (r"'(?P<text>.*)' is not a number or arithmetic", N_("'{text}' is not a number or arithmetic")),
        (
            r"give at least (?P<n>\d+) decimals \(you typed (?P<typed>\d+)\)",
            N_("give at least {n} decimals (you typed {typed})"),
        ),
    )
)


def error_text(err: Exception | str) -> str:
    """The reader's message for a library error (its English text when it is not a known one)."""
    message = str(err)
    for pattern, template in KNOWN_ERRORS:
        match = pattern.fullmatch(message)
        if match is None:
            continue
        parts = match.groupdict()
        if "problem" in parts:
            parts["problem"] = error_text(parts["problem"])
        fallback = parts.get("fallback")
        if fallback in FALLBACKS:
            parts["fallback"] = _(fallback)
        return _(template).format(**parts)
    return message
