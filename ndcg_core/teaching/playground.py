"""The playground's state as plain data: items, the judged pool, the variant.

Everything here is pure and serialisable, so the app's whole state fits in
a share link (its query parameters) and can be tested without a browser.

Share-link parameters
---------------------
``rel``          grades in ranked order, comma-separated (``3,2,3,0,1,2``)
``labels``       item names, comma-separated (optional; default D1, D2, ...)
``k``            cutoff (optional; default: the whole list)
``gain``         ``linear`` | ``exponential`` | a grade:gain table (``0:0,1:1,2:3``)
``discount``     ``log`` | ``jarvelin``
``base``         log base: a number above 1, or ``e``
``zero``         what IDCG = 0 scores: ``zero`` | ``one`` | ``skip`` | ``error``
``scores``       model scores, one per grade (optional): the ranking then follows them
``ties``         how equal scores are ordered: ``stable`` | ``average`` | ``docid_desc`` | ...
``pool``         grades of judged items the ranking did not retrieve
``pool_labels``  their names (optional; default J1, J2, ...)
``preset``       a library's NDCG (a key of ``ndcg_core.PRESETS``): its formula and rules
``lang``         the app's language, ``en`` | ``zh`` (:data:`UI_PARAMS`: not part of the state;
                 the app writes it unless both the page and the browser are English)

The formula keys are those of :data:`ndcg_core.SCHEMA` (each option's
``url_key``), written and read by the option itself. An invalid parameter
is reported by name and replaced by its default; the others still apply.

>>> state, warnings = from_query_params({"rel": "3,2,3,0,1,2", "discount": "jarvelin"})
>>> [i.grade for i in state.items], state.variant.name, warnings
([3.0, 2.0, 3.0, 0.0, 1.0, 2.0], "nDCG(discount='jarvelin')", [])
"""

from __future__ import annotations

import base64
import binascii
import json
import random
import zlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from urllib.parse import urlencode

import pandas as pd

from ..errors import Message, NDCGError
from ..explanation import Explanation, explain
from ..lists import LINE_BREAKS, finite_number, read_list
from ..metrics import GainSpec, gains, ndcg_curve
from ..presets import PRESETS, resolve
from ..spec import Spec
from ..variants import SCHEMA, Variant, format_number
from .examples import WorkedExample

__all__ = [
    "DEFAULT_STATE",
    "LESSON_STATE",
    "MAX_LINK_ITEMS",
    "MAX_STATE_BYTES",
    "UI_PARAMS",
    "Item",
    "PlaygroundState",
    "all_scored",
    "from_query_params",
    "parse_entries",
    "reorder",
    "share_params",
    "state_from_example",
    "state_from_file",
    "state_to_file",
    "to_query_params",
]


@dataclass(frozen=True)
class Item:
    """One judged item: a stable id (so duplicate labels stay apart), a label, a grade.

    ``score`` is an optional model score: when every item of a ranking has one,
    the ranking follows the scores (higher first) and ties follow the variant's
    ``ties`` rule.
    """

    id: int
    label: str
    grade: float
    score: float | None = None


@dataclass(frozen=True)
class PlaygroundState:
    """The ranking, the judged items it did not retrieve, and the resolved spec."""

    items: tuple[Item, ...]
    pool: tuple[Item, ...] = ()
    spec: Spec = field(default_factory=Spec)

    @property
    def variant(self) -> Variant:
        """The formula choices of the spec."""
        return self.spec.variant

    @property
    def scores(self) -> list[float] | None:
        """The items' scores when every item has one (the ranking then follows them), else None."""
        if all_scored(self.items):
            return [float(i.score) for i in self.items]  # type: ignore[arg-type]
        return None

    @property
    def ideal(self) -> list[float] | None:
        """Grades of every judged item (ranking + pool), or None when there is no pool."""
        return [i.grade for i in self.items + self.pool] if self.pool else None

    def explain(self) -> Explanation:
        """NDCG of this state, step by step (the ideal ordering uses items + pool)."""
        return explain(
            [i.grade for i in self.items],
            labels=[i.label for i in self.items],
            scores=self.scores,
            ideal=self.ideal,
            ideal_labels=[i.label for i in self.items + self.pool] if self.pool else None,
            spec=self.spec,
        )

    def curve(self, ex: Explanation | None = None) -> pd.DataFrame:
        """NDCG@k for every k (see :func:`ndcg_core.ndcg_curve`), for the ranking as explained.

        It reads the gains off an explanation (``ex``, or a fresh one), so scores that reorder
        the list, tie averaging that changes gains and a library's input rules are already applied.
        """
        ex = self.explain() if ex is None else ex
        on_gains = replace(self.spec, variant=self.variant.with_(gain="linear"))  # steps hold gains
        return ndcg_curve(list(ex.steps["Gain"]), ideal=list(ex.ideal_steps["Gain"]), spec=on_gains)

    def with_items(self, pairs: Iterable[tuple[str, float]]) -> PlaygroundState:
        """A copy whose ranking is ``pairs`` (label, grade), with fresh ids."""
        return replace(self, items=make_items(pairs, start=self.next_id()))

    def next_id(self) -> int:
        return max((i.id for i in self.items + self.pool), default=-1) + 1


def all_scored(items: Iterable[Item]) -> bool:
    """True when there are items and every one has a score (the ranking then follows them)."""
    items = tuple(items)
    return bool(items) and all(i.score is not None for i in items)


def make_items(pairs: Iterable[tuple[str, float]], start: int = 0) -> tuple[Item, ...]:
    return tuple(Item(start + n, str(label), float(grade)) for n, (label, grade) in enumerate(pairs))


def default_labels(n: int, prefix: str = "D") -> list[str]:
    return [f"{prefix}{i}" for i in range(1, n + 1)]


DEFAULT_STATE = PlaygroundState(
    items=make_items(zip(default_labels(6), (3, 2, 3, 0, 1, 2), strict=True)),
    spec=Spec(Variant(discount="jarvelin")),
)
"""Wikipedia's D1..D6, graded 3,2,3,0,1,2, with the original discount: NDCG 0.932."""

LESSON_STATE = replace(DEFAULT_STATE, spec=Spec(Variant()))
"""The lesson's opening: the same D1..D6 under the common discount log2(i + 1), NDCG 0.961 (the
lesson shows Wikipedia's original form, and its 0.932, once the discount is taught)."""


def state_from_example(example: WorkedExample) -> PlaygroundState:
    """A worked example as a playground state.

    The example's judged pool holds every judged item; those the ranking did
    not retrieve (matched by label, else by grade) become the state's pool.

    >>> from ndcg_core.teaching import get_example
    >>> state = state_from_example(get_example("shop-binary-a"))
    >>> [i.label for i in state.pool], state.variant.k
    (['Apple item (not retrieved)'], 3)
    """
    labels = example.labels or default_labels(len(example.grades))
    pairs = list(zip(labels, map(float, example.grades), strict=True))
    items = make_items(pairs)
    pool: tuple[Item, ...] = ()
    if example.pool is not None:
        pool_labels = example.pool_labels or default_labels(len(example.pool), "J")
        remaining = list(zip(pool_labels, map(float, example.pool), strict=True))
        for label, grade in pairs:
            if (label, grade) in remaining:
                remaining.remove((label, grade))
            else:
                same_grade = next((p for p in remaining if p[1] == grade), None)
                if same_grade is not None:
                    remaining.remove(same_grade)
        pool = make_items(remaining, start=len(items))
    return PlaygroundState(items=items, pool=pool, spec=Spec(example.variant))


def reorder(
    items: tuple[Item, ...], how: str, seed: int | None = None, gain: GainSpec = "linear"
) -> tuple[Item, ...]:
    """One-click orders: ``ideal``, ``worst``, ``reverse``, ``shuffle`` or ``reset`` (by id).

    ``ideal`` puts the highest gain first (under ``gain``, as :func:`ndcg_core.metrics.gains`
    takes it), which is the highest grade first unless a custom gain table ranks grades otherwise;
    ``worst`` the lowest gain first. Sorting is stable, so equal gains keep their current order.

    >>> items = make_items([("a", 1), ("b", 3), ("c", 2)])
    >>> [i.label for i in reorder(items, "ideal")]
    ['b', 'c', 'a']
    >>> [i.label for i in reorder(items, "ideal", gain={1: 5.0, 2: 1.0, 3: 0.0})]  # a table
    ['a', 'c', 'b']
    """
    if how in ("ideal", "worst"):
        worth = gains([i.grade for i in items], gain).tolist()
        sign = -1 if how == "ideal" else 1
        return tuple(item for _, item in sorted(zip(worth, items, strict=True), key=lambda p: sign * p[0]))
    if how == "reverse":
        return tuple(reversed(items))
    if how == "reset":
        return tuple(sorted(items, key=lambda i: i.id))
    if how == "shuffle":
        shuffled = list(items)
        rng = random.Random(seed)
        if len(shuffled) > 1:
            while shuffled == list(items):
                rng.shuffle(shuffled)
        return tuple(shuffled)
    raise NDCGError("unknown_order", how=repr(how))


# ---------------------------------------------------------------- parsing


def parse_entries(text: str) -> list[tuple[str | None, float]]:
    """Read a list typed or pasted by a person.

    On one line: grades alone (``3,2,3,0,1,2``) or ``label:grade`` pairs (``A:0.5, B:0.9``),
    separated by commas or semicolons. On several lines, one item a line: rows pasted from a
    spreadsheet (label and grade separated by a tab, a colon, a comma or spaces; a header row is
    skipped) or a column of grades. A missing label is returned as None; blank lines and a
    trailing separator are skipped.

    Raises ``ValueError`` naming what is not understood: the entry on one line (``3, two, 1``;
    ``1,,2``: an empty entry; ``A:1:2``: a second separator), every such line on several lines.

    >>> parse_entries("A:0.5, B:0.9")
    [('A', 0.5), ('B', 0.9)]
    >>> parse_entries("item\\tgrade\\nx\\t2\\ny\\t0")
    [('x', 2.0), ('y', 0.0)]
    >>> parse_entries("3\\n2\\n1")
    [(None, 3.0), (None, 2.0), (None, 1.0)]
    >>> try:
    ...     parse_entries("3, two, 1")
    ... except ValueError as err:
    ...     print(err)
    entry 2 ('two') is not a number; write a grade such as 2 or 0.5, or label:grade
    >>> try:
    ...     parse_entries("A\\t3\\nB\\tx\\nC\\t1:2")
    ... except ValueError as err:
    ...     print(err.code, err.values["lines"])
    bad_lines 2, 3
    """
    lines = read_list(text, LINE_BREAKS, skip_empty=True)
    multi_line = len(lines) > 1
    if multi_line or not lines:
        entries = lines
    else:
        entries = read_list(lines[0].text, ",;")
        while entries and not entries[-1].text:  # "3,2,1,": a trailing separator
            entries.pop()
    # Label/grade separators, most specific first; a pasted row may also use a comma.
    separators = ["\t", ":", "="] + ([",", ";"] if multi_line else [])
    out: list[tuple[str | None, float]] = []
    bad: list[tuple[int, str]] = []  # the lines not understood (several lines: each is named)
    for n, item in enumerate(entries, start=1):
        read = _read_entry(n, item.text, item.number, separators, header=n == 1 and multi_line)
        if isinstance(read, NDCGError):
            if not multi_line:
                raise read
            bad.append((n, item.text))
        elif read is not None:
            out.append(read)
    if len(bad) == 1:
        raise NDCGError("bad_line", n=bad[0][0], text=repr(bad[0][1][:40]))
    if bad:
        numbers = ", ".join(str(n) for n, _ in bad[:10]) + (", …" if len(bad) > 10 else "")
        raise NDCGError("bad_lines", lines=numbers, n=bad[0][0], text=repr(bad[0][1][:40]))
    return out


def _read_entry(
    n: int, entry: str, number: float | None, separators: list[str], *, header: bool
) -> tuple[str | None, float] | NDCGError | None:
    """One entry as ``(label, grade)``, None for a header row to skip, or the problem (not raised)."""
    if number is not None:
        return None, number
    if not entry:
        return NDCGError("entry_empty", n=n)
    sep = next((s for s in separators if s in entry), None)
    if sep is not None:
        label, _, grade_text = entry.partition(sep)
        if sep in grade_text:  # "A:1:2": which number is the grade?
            return NDCGError("entry_two_separators", n=n, text=repr(entry[:40]), sep=repr(sep))
    elif " " in entry:
        label, _, grade_text = entry.rpartition(" ")
    else:
        label, grade_text = entry, entry
    grade = finite_number(grade_text)
    if grade is None:
        if header and label.strip() != entry:
            return None  # a header row such as "item<TAB>relevance"
        return NDCGError("entry_not_number", n=n, text=repr(grade_text.strip()))
    return label.strip() or None, grade


def fill_labels(pairs: list[tuple[str | None, float]], prefix: str = "D") -> list[tuple[str, float]]:
    """Give unlabeled entries the name ``D<position>``."""
    return [(label if label else f"{prefix}{n}", g) for n, (label, g) in enumerate(pairs, start=1)]


# ---------------------------------------------------------------- share links

#: Share-link parameters of the page around the state (the language): never read as state.
UI_PARAMS = ("lang",)


def _fmt(x: float) -> str:
    return format_number(x)


def _csv(values: Iterable[str]) -> str:
    return ",".join(values)


def to_query_params(state: PlaygroundState) -> dict[str, str]:
    """The share-link parameters of a state (defaults left out, ``rel`` always in).

    The formula keys come from :data:`ndcg_core.SCHEMA`: each option writes its
    own value. A preset is written by name (with ``k``): it fixes the rest.
    """
    spec, v = state.spec, state.variant
    params = {"rel": _csv(_fmt(i.grade) for i in state.items)}
    labels = [i.label for i in state.items]
    if labels != default_labels(len(labels)):
        params["labels"] = _csv(_escape(x) for x in labels)
    if spec.preset is not None:
        params["preset"] = spec.preset
    for option in SCHEMA:
        if spec.preset is not None and option.name != "k":
            continue  # the preset fixes the formula
        value = getattr(v, option.name)
        if value != option.default:
            params[option.url_key] = option.to_url(value)
    if state.scores is not None:
        params["scores"] = _csv(_fmt(x) for x in state.scores)
    if state.pool:
        params["pool"] = _csv(_fmt(i.grade) for i in state.pool)
        pool_labels = [i.label for i in state.pool]
        if pool_labels != default_labels(len(pool_labels), "J"):
            params["pool_labels"] = _csv(_escape(x) for x in pool_labels)
    return params


#: The longest URL the app writes (proxies and servers commonly refuse longer ones).
MAX_URL = 8_000
#: Most items (grades, scores, labels, judged-pool entries) a share link or a saved state may hold.
#: A visitor sends a link and the server draws and keeps its page, so the list a link may hold is
#: sized by that cost (issue 37; AppTest, one process, measured with tracemalloc): 5,000 items cost
#: 0.9 s of CPU for the first run, 1.1 MB of page and 4.4 MB held by the session; 100,000 cost 4.7 s,
#: 21 MB and 85 MB, and a tab closed on such a link left that memory behind.
MAX_LINK_ITEMS = 5_000
#: Most bytes a compact ``state`` link may decompress to: :data:`MAX_LINK_ITEMS` items with labels
#: fit; a 2,640-character link of zeros would otherwise decompress to a million grades.
MAX_STATE_BYTES = 1_000_000
#: The share-link parameters that are lists, split at commas (:func:`_split`, :func:`_grades`).
_LIST_PARAMS = ("rel", "labels", "scores", "pool", "pool_labels")
#: Room left for the scheme, host and path in front of the query string.
_URL_HEAD = 300
_STATE_FILE_FORMAT = "ndcg-playground-state"


def _query_length(params: Mapping[str, str]) -> int:
    return len(urlencode(params))


def _over_item_limit(params: Mapping[str, object]) -> tuple[str, int] | None:
    """The first list parameter with more than :data:`MAX_LINK_ITEMS` entries and its count, or None.

    Counted with ``str.count`` (entries are comma-separated), so a link over the limit costs no parsing.
    """
    for key in _LIST_PARAMS:
        value = params.get(key)
        if isinstance(value, str) and (n := value.count(",") + 1) > MAX_LINK_ITEMS:
            return key, n
    return None


def encode_compact(params: Mapping[str, str]) -> str:
    """Share-link parameters as one URL-safe text: JSON, zlib-compressed, base64url."""
    raw = json.dumps(dict(params), separators=(",", ":"), ensure_ascii=False).encode()
    return base64.urlsafe_b64encode(zlib.compress(raw, 9)).decode().rstrip("=")


def decode_compact(text: str) -> dict[str, str]:
    """The parameters inside a compact ``state`` value; ``ValueError`` if it is not one."""
    try:
        # At most one byte past the cap is ever decompressed: a zip bomb stops here, before any work.
        raw = zlib.decompressobj().decompress(
            base64.urlsafe_b64decode(text + "=" * (-len(text) % 4)), MAX_STATE_BYTES + 1
        )
    except (ValueError, zlib.error, binascii.Error):
        raise NDCGError("link_not_decodable") from None
    if len(raw) > MAX_STATE_BYTES:
        raise NDCGError("link_too_large", max=f"{MAX_STATE_BYTES:,}")
    try:
        params = json.loads(raw)
    except ValueError:
        raise NDCGError("link_not_decodable") from None
    if (
        not isinstance(params, dict)
        or not all(isinstance(v, str) for v in params.values())
        or "state" in params
    ):
        raise NDCGError("link_without_params")
    return params


def share_params(state: PlaygroundState, max_url: int = MAX_URL) -> dict[str, str] | None:
    """The parameters of a share link that stays under ``max_url`` characters, or None.

    The readable parameters when they fit; otherwise one compact ``state`` parameter (the
    same parameters, compressed); None when even that is too long (then the state can only
    travel as a file: :func:`state_to_file`).
    """
    params = to_query_params(state)
    if _over_item_limit(params) is not None:
        return None  # no link would open: only a file (which holds as many items as a link)
    if _query_length(params) <= max_url - _URL_HEAD:
        return params
    if len(json.dumps(dict(params), separators=(",", ":"), ensure_ascii=False).encode()) > MAX_STATE_BYTES:
        return None
    compact = {"state": encode_compact(params)}
    return compact if _query_length(compact) <= max_url - _URL_HEAD else None


def state_to_file(state: PlaygroundState) -> bytes:
    """The whole state as a small JSON file (its share-link parameters), to load back later."""
    return json.dumps(
        {"format": _STATE_FILE_FORMAT, "params": to_query_params(state)}, ensure_ascii=False
    ).encode()


def state_from_file(data: bytes) -> dict[str, str]:
    """The share-link parameters of a file written by :func:`state_to_file` (``ValueError`` if not)."""
    try:
        doc = json.loads(data)
    except (ValueError, UnicodeDecodeError):
        raise NDCGError("state_not_json") from None
    params = doc.get("params") if isinstance(doc, dict) and doc.get("format") == _STATE_FILE_FORMAT else None
    if not isinstance(params, dict) or not all(isinstance(v, str) for v in params.values()):
        raise NDCGError("state_not_ours")
    return params


def _escape(label: str) -> str:
    # A comma inside a label would split it; write it as the look-alike "‚".
    return label.replace(",", "\u201a")


def _split(text: str) -> list[str]:
    return [entry.text for entry in read_list(text)]


def _grades(text: str) -> list[float]:
    values = []
    for n, entry in enumerate(read_list(text), start=1):
        part, value = entry.text, entry.number
        if value is None:
            raise NDCGError("entry_not_finite", n=n, text=repr(part))
        values.append(value)
    return values


def _fallback(option) -> str:
    if option.default is None:
        return Message("whole_list")
    return option.label_of(option.default) if option.kind == "base" else repr(option.default)


def from_query_params(params: Mapping[str, str]) -> tuple[PlaygroundState, list[str]]:
    """Build a state from share-link parameters.

    Returns the state and a list of warnings, one per invalid parameter,
    each naming the parameter; that parameter falls back to its default.
    Without a valid ``rel`` the state is the default example (Wikipedia's
    D1..D6), with the example's own formula unless the link sets it.
    """
    warnings: list[str] = []  # Message s: English text, translated where shown
    get = {key: (value[-1] if isinstance(value, list) else value) for key, value in params.items()}
    if "state" in get:  # a compact link: the same parameters, compressed
        try:
            get = decode_compact(get["state"])
        except ValueError as err:
            warnings.append(
                Message("share_link_param", key="state", problem=err, fallback=Message("default_example"))
            )
            get = {}

    def warn(key: str, problem: Exception | str, fallback: str) -> None:
        warnings.append(Message("share_link_param", key=key, problem=problem, fallback=fallback))

    if (over := _over_item_limit(get)) is not None:  # counted before any list is read
        key, n = over
        warn(
            key,
            NDCGError("link_too_many_items", n=f"{n:,}", max=f"{MAX_LINK_ITEMS:,}"),
            Message("default_example"),
        )
        get = {}

    base_state = DEFAULT_STATE
    items = base_state.items
    own_list = False  # True when the link's own grades are used (else: the example and its formula)
    if "rel" in get:
        try:
            grades = _grades(get["rel"])
            items = make_items(zip(default_labels(len(grades)), grades, strict=True))
            own_list = True
        except ValueError as err:
            warn("rel", err, Message("default_example"))
    own_list = items is not base_state.items
    if "labels" in get and own_list:
        labels = _split(get["labels"])
        if len(labels) == len(items):
            items = tuple(replace(i, label=lab) for i, lab in zip(items, labels, strict=True))
        else:
            warn("labels", Message("labels_for_grades", a=len(labels), b=len(items)), "D1, D2, ...")

    if "scores" in get and own_list:
        try:
            scores = _grades(get["scores"])
            if len(scores) != len(items):
                raise NDCGError("scores_for_grades", a=len(scores), b=len(items))
            items = tuple(replace(i, score=x) for i, x in zip(items, scores, strict=True))
        except ValueError as err:
            warn("scores", err, Message("order_as_given"))

    pool: tuple[Item, ...] = ()
    if "pool" in get:
        try:
            pool_grades = _grades(get["pool"])
            pool_pairs = zip(default_labels(len(pool_grades), "J"), pool_grades, strict=True)
            pool = make_items(pool_pairs, len(items))
        except ValueError as err:
            warn("pool", err, Message("no_extra_judged_items"))
    if "pool_labels" in get and pool:
        labels = _split(get["pool_labels"])
        if len(labels) == len(pool):
            pool = tuple(replace(i, label=lab) for i, lab in zip(pool, labels, strict=True))
        else:
            warn("pool_labels", Message("labels_for_pool_grades", a=len(labels), b=len(pool)), "J1, J2, ...")

    # Without a list of its own, the default example's formula is the starting point.
    variant = Variant() if own_list else base_state.variant
    table_key = "gain"
    for option in SCHEMA:
        key = option.url_key
        if key not in get:
            continue
        text = get[key]
        if option.kind == "gain" and text.strip() == "custom":  # older links: gain=custom&gains=...
            key, text = "gains", get.get("gains", "")
            table_key = key
        try:
            variant = variant.with_(**{option.name: option.from_url(text)})
        except ValueError as err:
            warn(key, err, _fallback(option))
    table = variant.gain_table
    if table is not None:
        missing = sorted({i.grade for i in items + pool} - set(table))
        if missing:
            warn(table_key, Message("no_gain_for_grade", g=f"{missing[0]:g}"), Message("linear_gain"))
            variant = variant.with_(gain="linear")
    spec = Spec(variant)
    if "preset" in get:
        name = get["preset"].strip()
        try:
            if name not in PRESETS:  # named alone: the list of presets is too long for a warning
                raise NDCGError("no_such_preset", name=repr(name))
            spec = resolve(name, k=variant.k)
        except ValueError as err:
            warn("preset", err, Message("formula_above"))
    return PlaygroundState(items=items, pool=pool, spec=spec), warnings
