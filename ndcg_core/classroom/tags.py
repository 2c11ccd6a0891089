"""Join tags: what makes a room's join link more than its code (issue 37, part 4).

Wrong room codes are rate-limited (:mod:`.limits`). A limit that refused a right code as readily as
a wrong one let one guesser behind a hall's NAT turn away the phones opening the lecturer's link;
a limit that always let a right code through would tell a guesser which codes exist. So the link
the lecturer shows (and its QR code) carries, beside the 6-character code, a join tag: the room
code's HMAC-SHA256 under a secret every replica shares, as :data:`TAG_LENGTH` characters of the room
codes' alphabet (``room=ABC234&tag=K7PQ2M``). A link whose tag is the code's is never held up by
anyone's wrong codes; a typed code (or a wrong tag) is a guess, subject to the limits. A guesser
cannot make a tag without the secret, and trying tags is itself a guess.

A tag is not an identity: it is the same for every student of the room (who a browser is stays in
its cookies). The secret is made once, at random, and kept in the class database (the table
``class_secrets``, made by ``create_all``), so tags hold for rooms made by older versions too, and
on every replica; each :class:`JoinTags` reads it once.

>>> tag = tag_of(b"a secret", "ABC234")
>>> len(tag), set(tag) <= set(CODE_ALPHABET), tag == tag_of(b"a secret", "ABC234")
(6, True, True)
>>> tag == tag_of(b"another secret", "ABC234") or tag == tag_of(b"a secret", "ABC235")
False
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import threading
from collections.abc import Callable

from sqlalchemy import Column, String, Table, select
from sqlalchemy.dialects import postgresql, sqlite

from .database import metadata
from .limits import engine_of
from .store import CODE_ALPHABET, Store, clean_code

__all__ = ["TAG_LENGTH", "JoinTags", "tag_of"]

#: Characters of a join tag: 31**6, about 887 million tags.
TAG_LENGTH = 6

#: Secrets the app makes once and every replica reads: ``join_tag`` (the HMAC key of join tags).
app_secrets = Table(
    "class_secrets",
    metadata,
    Column("name", String(20), primary_key=True),
    Column("value", String(128), nullable=False),
)


def tag_of(secret: bytes, code: str) -> str:
    """The join tag of room ``code`` under ``secret``: HMAC-SHA256, written in the codes' alphabet."""
    number = int.from_bytes(hmac.new(secret, code.encode(), hashlib.sha256).digest()[:8], "big")
    letters = []
    for _ in range(TAG_LENGTH):
        number, digit = divmod(number, len(CODE_ALPHABET))
        letters.append(CODE_ALPHABET[digit])
    return "".join(letters)


class JoinTags:
    """The join tags of one class database (``store``: a :class:`~.store.Store`, or a function
    returning the page's one). The secret is read (or made) at first use and kept per database."""

    NAME = "join_tag"

    def __init__(self, store: Store | Callable[[], Store]) -> None:
        self._store = store
        self._kept: tuple[object, bytes] | None = None  # (engine, secret)
        self._lock = threading.Lock()

    def _secret(self) -> bytes:
        engine = engine_of(self._store)
        kept = self._kept
        if kept is not None and kept[0] is engine:
            return kept[1]
        insert = postgresql.insert if engine.dialect.name == "postgresql" else sqlite.insert
        with self._lock, engine.execution_options(write=True).begin() as conn:
            made = insert(app_secrets).values(name=self.NAME, value=secrets.token_hex(32))
            conn.execute(made.on_conflict_do_nothing())  # the first replica's stays
            value = conn.execute(
                select(app_secrets.c.value).where(app_secrets.c.name == self.NAME)
            ).scalar_one()
        self._kept = (engine, bytes.fromhex(value))
        return self._kept[1]

    def tag(self, code: str) -> str:
        """The join tag of room ``code`` (any well-formed code: whether the room exists is not asked)."""
        return tag_of(self._secret(), clean_code(code) or code)

    def valid(self, code: str | None, tag: str | None) -> bool:
        """Whether ``tag`` is room ``code``'s join tag (compared in constant time)."""
        cleaned = clean_code(code)
        if cleaned is None or not isinstance(tag, str) or len(tag) != TAG_LENGTH:
            return False
        return hmac.compare_digest(self.tag(cleaned).encode(), tag.upper().encode())
