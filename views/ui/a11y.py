"""What assistive technology needs and Streamlit does not give (issue 28): the page's language in
``<html lang>``, names for the drag lists' frames, and a live region that announces a changed number
or a verdict.

Streamlit hard-codes ``<html lang="en">`` and draws a component's frame with its component's name as
title ("streamlit_sortables.sortable_items"); neither has a setting. Its public way to run a script
in the page is ``st.html(..., unsafe_allow_javascript=True)``: :func:`page_setup` draws one such
script per run of ``app.py``. The script keeps its settings in ``window`` and installs one
``MutationObserver`` per page load, so what it fixes stays fixed when Streamlit redraws (a rerun,
a fragment's rerun, another page): the frames' ``aria-label`` and ``title`` (a tooltip and some
screen readers read the title: it named the component in English; tests find a frame by its
``src``) and the live region, a ``role="status"`` element of its own outside Streamlit's tree,
which React never replaces, so screen readers hear its changes.

A page asks for an announcement with :func:`announce`: a hidden element carrying the text, which the
observer copies into the live region when the text changes; and for the keyboard focus to move
with :func:`move_focus` (after a button that disappears, focus would drop to the page's start).
These elements are hidden by the stylesheet (``.ndcg-quiet``): they take no room on the page.
"""

from __future__ import annotations

import html
import json

import streamlit as st

from ndcg_core.i18n import N_, _, language

from .styles import STREAMLIT_TEXTS

#: ``<html lang>`` per app language (BCP 47): Simplified Chinese, so browsers pick its glyphs.
HTML_LANG = {"en": "en", "zh": "zh-Hans"}

#: The drag lists' frames, by the container around them (views.ui.drag, views.practice).
FRAMES = {
    "[class*='st-key-drag_rows_'] iframe": N_(
        "Your ranking: drag an item, or press Space on it and move it with the arrow keys"
    ),
    ".st-key-pr_drag iframe": N_(
        "The exercise's list: drag an item, or press Space on it and move it with the arrow keys"
    ),
}

_SCRIPT = """<div class="ndcg-quiet"></div><script>
(() => {
  window.__ndcgA11y = %(config)s;
  // Streamlit's own English, translated where it is drawn: an attribute, or the element's own text.
  // "{x}" in the English stands for what Streamlit filled in, and is kept.
  const match = (english, value) => {
    const at = english.indexOf('{x}');
    if (at < 0) return value === english ? '' : null;
    const head = english.slice(0, at), tail = english.slice(at + 3);
    const fits = value.length > head.length + tail.length && value.startsWith(head) && value.endsWith(tail);
    return fits ? value.slice(head.length, value.length - tail.length) : null;
  };
  const translate = (c) => {
    for (const [selector, where, strings] of c.texts) {
      for (const el of document.querySelectorAll(selector)) {
        const nodes = [];
        if (where === 'text') {
          const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
          for (let n = walker.nextNode(); n; n = walker.nextNode()) nodes.push(n);
        }
        for (const [english, text] of strings) {
          if (where !== 'text') {
            const x = match(english, el.getAttribute(where) || '');
            if (x !== null) el.setAttribute(where, text.replace('{x}', x));
            continue;
          }
          for (const n of nodes) {
            const x = match(english, n.nodeValue.trim());
            if (x !== null) n.nodeValue = text.replace('{x}', x);
          }
        }
      }
    }
  };
  const fix = () => {
    const c = window.__ndcgA11y, root = document.documentElement;
    if (root.lang !== c.lang) root.lang = c.lang;
    translate(c);
    for (const [selector, label] of Object.entries(c.frames)) {
      for (const frame of document.querySelectorAll(selector)) {
        if (frame.getAttribute('aria-label') !== label) frame.setAttribute('aria-label', label);
        if (frame.title !== label) frame.title = label;
      }
    }
    let live = document.getElementById('ndcg-live');
    if (!live) {
      live = Object.assign(document.createElement('div'), {id: 'ndcg-live', className: 'ndcg-sr-only'});
      live.setAttribute('role', 'status');
      live.setAttribute('aria-atomic', 'true');
      document.body.appendChild(live);
    }
    const said = window.__ndcgSaid || (window.__ndcgSaid = new Map());
    for (const el of document.querySelectorAll('.ndcg-say[data-say]')) {
      // Each element's text is taken once. During a rerun the page can hold two of one key (the
      // last run's, not yet removed, and this run's): compared only with the key's last text, they
      // would take turns, each change of the live region calling fix again, with no end.
      const key = el.dataset.key, text = el.dataset.say;
      if (el.__ndcgTaken === text) continue;
      el.__ndcgTaken = text;
      const before = said.get(key);
      if (before === text) continue;
      said.set(key, text);
      // A number is announced when it changes, not when a page shows it first; a verdict always.
      if (before !== undefined || el.dataset.first !== 'quiet') live.textContent = text;
    }
    // A request to move the focus (to an enabled element) or to bring an element into view, done
    // once per action and key, as soon as its target is on the page.
    const done = window.__ndcgDone || (window.__ndcgDone = new Set());
    for (const el of document.querySelectorAll('.ndcg-request[data-target]')) {
      const target = document.querySelector(el.dataset.target), id = el.dataset.do + ' ' + el.dataset.key;
      if (done.has(id) || !target || (el.dataset.do === 'focus' && target.disabled)) continue;
      done.add(id);
      if (el.dataset.do === 'focus') target.focus();
      else target.scrollIntoView({block: 'nearest'});
    }
  };
  fix();
  if (!window.__ndcgObserver) {
    window.__ndcgObserver = new MutationObserver(fix);
    window.__ndcgObserver.observe(document.body, {childList: true, subtree: true, attributes: true,
                                                 attributeFilter: ['data-say', 'title']});
  }
})();
</script>"""


def page_setup() -> None:
    """The page's language, the frames' names and the live region (drawn by app.py on every run)."""
    lang = language()
    texts = [] if lang == "en" else STREAMLIT_TEXTS
    config = {
        "lang": HTML_LANG.get(lang, lang),
        "frames": {s: _(t) for s, t in FRAMES.items()},
        # Streamlit's own English, where it is drawn, and its translation (none on an English page)
        "texts": [[selector, where, [[e, _(e)] for e in english]] for selector, where, english in texts],
    }
    data = json.dumps(config, ensure_ascii=False).replace("<", "\\u003c")  # never ends the script early
    st.html(_SCRIPT % {"config": data}, unsafe_allow_javascript=True)


def announce(key: str, text: str, *, on_first_show: bool = True) -> None:
    """Have screen readers say ``text`` (plain text) when it differs from the last one under ``key``.

    ``on_first_show=False`` keeps it quiet when the page shows it first (a number on arrival), and
    announces only its changes.
    """
    first = "" if on_first_show else ' data-first="quiet"'
    data = f'data-key="{html.escape(key)}" data-say="{html.escape(text)}"{first}'
    st.html(f'<div class="ndcg-quiet ndcg-say" {data}></div>')


def _request(action: str, selector: str, key: str) -> None:
    """Ask the page script to do ``action`` ("focus" or "show") to the first element matching
    ``selector`` (CSS), once per ``key`` (a new key for every request)."""
    data = f'data-do="{action}" data-key="{html.escape(key)}" data-target="{html.escape(selector)}"'
    st.html(f'<div class="ndcg-quiet ndcg-request" {data}></div>')


def move_focus(selector: str, key: str) -> None:
    """Move the keyboard focus to the first element matching ``selector`` (CSS), once per ``key``
    (a new key for every request), as soon as it is on the page and enabled."""
    _request("focus", selector, key)


def bring_into_view(selector: str, key: str) -> None:
    """Scroll the first element matching ``selector`` (CSS) into view, once per ``key`` (a new key
    for every request): a verdict drawn below the fold of a phone after Check, where nothing on
    screen would otherwise change."""
    _request("show", selector, key)


#: Space on a focused button presses that button, never a page's Space shortcut as well: Streamlit's
#: shortcuts listen on the document, so Space on a focused "Previous" also fired the presenter's
#: "Next (Space)" and the step went forward. A listener on the window, in the capture phase, runs
#: first and keeps the key from them; the button's own press (the browser's default) still happens.
_FOCUSED_SPACE = """<div class="ndcg-quiet"></div><script>
window.__ndcgSpaceShortcut = %(selector)s;
if (!window.__ndcgFocusedSpace) {
  window.__ndcgFocusedSpace = true;
  window.addEventListener('keydown', (event) => {
    if (event.key !== ' ' && event.code !== 'Space') return;
    const el = document.activeElement;
    // Native buttons only: they press themselves on Space (the browser's default, untouched here);
    // other controls may need the key event. And only on a page that has a Space shortcut.
    if (el && el.tagName === 'BUTTON' && document.querySelector(window.__ndcgSpaceShortcut)) {
      event.stopImmediatePropagation();
    }
  }, true);
}
</script>"""


def focused_space_presses_the_button(shortcut: str) -> None:
    """Space on a focused button does what the button says, not the page's Space shortcut, the
    button matching the CSS selector ``shortcut`` (see above)."""
    st.html(_FOCUSED_SPACE % {"selector": json.dumps(shortcut)}, unsafe_allow_javascript=True)
