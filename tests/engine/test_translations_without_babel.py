"""Issue 40 part 1: translations work without Babel at run time.

Where no current ``.mo`` exists (a wheel built without ``make compile-catalogs``, an edited catalog),
``ndcg_core.i18n`` compiles the ``.po`` itself. Expected values: Babel's own compilation of the same
catalog (Babel is in the test install), entry by entry.
"""

from __future__ import annotations

import gettext
import io
import shutil
import sys

import pytest

from ndcg_core import i18n
from ndcg_core.i18n import compile_po, read_po

PO = i18n.LOCALE_DIR / "zh" / "LC_MESSAGES" / "messages.po"


def test_compile_po_gives_babels_catalog_entry_for_entry():
    mofile = pytest.importorskip("babel.messages.mofile")
    pofile = pytest.importorskip("babel.messages.pofile")
    with PO.open("rb") as source:
        catalog = pofile.read_po(source, locale="zh", domain="messages")
    compiled = io.BytesIO()
    mofile.write_mo(compiled, catalog)
    compiled.seek(0)
    theirs = gettext.GNUTranslations(compiled)
    ours = gettext.GNUTranslations(io.BytesIO(compile_po(PO.read_text(encoding="utf-8"))))
    assert ours._catalog == theirs._catalog  # every msgid, context and plural form
    assert ours.info() == theirs.info()
    assert ours.ngettext("{n} answer", "{n} answers", 3) == theirs.ngettext("{n} answer", "{n} answers", 3)


def test_read_po_leaves_out_fuzzy_obsolete_and_untranslated_entries():
    text = (
        'msgid ""\nmsgstr ""\n"Plural-Forms: nplurals=1; plural=0;\\n"\n\n'
        '#, fuzzy\nmsgid "Old"\nmsgstr "旧"\n\n'
        'msgid "Untranslated"\nmsgstr ""\n\n'
        'msgctxt "exercise"\nmsgid "Previous"\nmsgstr "上一题"\n\n'
        'msgid "Say \\"hi\\"\\n"\nmsgstr ""\n"说\\"你好\\"\\n"\n\n'
        '#~ msgid "Gone"\n#~ msgstr "没了"\n'
    )
    entries = read_po(text)
    assert set(entries) == {"", "exercise\x04Previous", 'Say "hi"\n'}
    assert entries['Say "hi"\n'] == '说"你好"\n'


def test_set_language_zh_works_without_babel_and_without_a_compiled_catalog(tmp_path, monkeypatch):
    """The defect: set_language("zh") on an engine-only install failed without Babel when no .mo existed."""
    folder = tmp_path / "zh" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    shutil.copy(PO, folder / "messages.po")  # a .po and no .mo, as a wheel built without make has
    monkeypatch.setattr(i18n, "LOCALE_DIR", tmp_path)
    for name in [m for m in sys.modules if m == "babel" or m.startswith("babel.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "babel", None)  # import babel fails, as without the package
    i18n.translations.cache_clear()
    try:
        i18n.set_language("zh")
        assert i18n._("Playground") == "演练场"
        assert i18n.pgettext("separator", "; ") == "；"
    finally:
        i18n.set_language("en")
        i18n.translations.cache_clear()
