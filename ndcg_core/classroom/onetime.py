"""One-time codes: a secret handed to another device without a link that is an identity.

A learner continuing on another device (:meth:`~.progress.ProgressStore.transfer`) and a lecturer
running a room from another device (:meth:`~.store.Store.handoff`) each get a code of
:data:`LENGTH` characters that lives :data:`MINUTES` minutes and works once. The database keeps
only the code's hash (:func:`digest`). A learner's code also carries the learner's token, which the
database keeps only hashed: it is sealed under the code (:func:`seal`), so a copy of the database
gives neither the codes nor, without them, the tokens. (A lecturer's code gives the room's key,
which the room's own row holds.) Room codes and one-time codes use one alphabet, read out and typed
without confusion (no 0/O, 1/I/L).

>>> clean(" abcd-efgh "), clean("ABCD-EFG0"), shown("ABCDEFGH")
('ABCDEFGH', None, 'ABCD-EFGH')
>>> sealed = seal("a secret", "ABCDEFGH")
>>> unseal(sealed, "ABCDEFGH"), unseal(sealed, "ABCDEFGJ") == "a secret"
('a secret', False)
"""

from __future__ import annotations

import hashlib
import secrets

#: The characters of room codes and one-time codes.
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
#: Characters of a one-time code (31**8: about 852 billion codes) ...
LENGTH = 8
#: ... and the minutes it lives.
MINUTES = 30


def new_code() -> str:
    """A random one-time code of :data:`LENGTH` characters."""
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(LENGTH))


def clean(text: str | None) -> str | None:
    """A typed one-time code, upper-cased, without spaces and dashes; None when it cannot be one."""
    code = "".join((text or "").split()).replace("-", "").upper()
    if len(code) != LENGTH or any(c not in CODE_ALPHABET for c in code):
        return None
    return code


def shown(code: str) -> str:
    """A one-time code as a page shows it: two halves of four, easy to read out and type."""
    half = len(code) // 2
    return f"{code[:half]}-{code[half:]}"


def digest(text: str) -> str:
    """What the database keeps of a code (or a learner token): its SHA-256, in hex."""
    return hashlib.sha256(text.encode()).hexdigest()


def _pad(code: str, size: int) -> bytes:
    """``size`` bytes drawn from ``code``, not its stored hash: SHA-256 of the code, then of the code
    and a block number, as long as needed (a learner token and a lecturer key fit in the first)."""
    seed = b"ndcg continue code\0" + code.encode()
    blocks = [
        hashlib.sha256(seed if n == 0 else seed + n.to_bytes(4, "big")).digest()
        for n in range(size // 32 + 1)
    ]
    return b"".join(blocks)[:size]


def seal(secret: str, code: str) -> str:
    """``secret`` sealed under ``code``: XOR with bytes drawn from the code (:func:`_pad`), in hex."""
    data = secret.encode()
    return bytes(a ^ b for a, b in zip(data, _pad(code, len(data)), strict=True)).hex()


def unseal(sealed: str, code: str) -> str | None:
    """The secret :func:`seal` sealed under ``code``; None when it does not decode (the caller
    checks that it is a secret of its kind: another code gives other bytes)."""
    try:
        data = bytes.fromhex(sealed)
        return bytes(a ^ b for a, b in zip(data, _pad(code, len(data)), strict=True)).decode()
    except ValueError:
        return None
