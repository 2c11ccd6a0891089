"""Simulated phones that speak Streamlit's own websocket protocol, as the browser's page does.

A phone is what a student's browser does on ``/class?room=CODE``, without drawing anything:

- (joining phones) it loads the page as a browser does the first time: the HTML, then the
  scripts and style sheets the HTML names (the browser's cache is empty on a new phone);
- it opens the websocket ``/_stcore/stream`` through the proxy (the cookies: the proxy's affinity
  cookie ``ndcg_route``, and the room's student cookie once joined) and asks for the page
  (``BackMsg.rerun_script``, the same fields Chromium sends: recorded from a real page);
- it does what the page's watcher script does (``views/room/watcher.py``): every 2 s it asks the
  room's state route (``GET /api/room/CODE/state``, with its cookies) and, when the state differs
  from the one the page drew, reruns the page through the watcher's trigger (the same widget state
  Chromium sends: recorded from a real page);
- it follows the page's slower ``st.fragment(run_every=...)``: the server says ``auto_rerun``
  (interval and fragment id) and the phone asks for that fragment every interval, as the browser's
  timer does;
- it answers through the form: the text box's value and the form's submit trigger in one rerun
  (``widget_states``, the widget ids read from the elements the server sent), then waits for
  "Saved";
- when the websocket closes (a replica stopped), it reconnects through the proxy after a second,
  as the page does, and reads who it is from the page ("you are ...").

Times are ``time.monotonic()`` (one machine, one clock for every process).
"""

from __future__ import annotations

import asyncio
import contextlib
import gzip
import json
import re
import time
import urllib.parse
from dataclasses import dataclass, field

from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

#: ForwardMsg.script_finished: a whole page run, and a fragment's run, finished.
PAGE_DONE, FRAGMENT_DONE = 0, 3
ASSET = re.compile(r"""<(?:script[^>]+src|link[^>]+href)=["']([^"']+\.(?:js|css))["']""")


def rerun(query: str, page_hash: str, *, widgets=(), fragment: str = "", url: str = "") -> bytes:
    """The rerun request a page sends: the first one names the page (``page_name``), later ones its
    hash; ``widgets``: ``(id, kind, value)`` with kind ``string_value`` or ``trigger_value``."""
    msg = BackMsg()
    rs = msg.rerun_script
    rs.query_string = query
    rs.widget_states.SetInParent()
    for wid, kind, value in widgets:
        w = rs.widget_states.widgets.add()
        w.id = wid
        setattr(w, kind, value)
    if page_hash:
        rs.page_script_hash = page_hash
    else:
        rs.page_name = "class"
    if fragment:
        rs.fragment_id = fragment
        rs.is_auto_rerun = True
    info = rs.context_info
    info.timezone, info.timezone_offset, info.locale, info.url = "UTC", 0, "en-US", url
    info.is_embedded, info.color_scheme = False, "light"
    return msg.SerializeToString()


@dataclass
class PhoneLog:
    """What one phone saw (monotonic seconds)."""

    index: int
    opened: float | None = None  # started to open the join link
    html_done: float | None = None  # the HTML and its scripts and style sheets loaded
    name_box: float | None = None  # the "Your name" box arrived
    page_done: float | None = None  # the first page run finished
    sent: float | None = None  # pressed "Send answer"
    saved: float | None = None  # "Saved" arrived
    polls: list[float] = field(default_factory=list)  # fragment rerun: request -> finished (s)
    asks: list[float] = field(default_factory=list)  # the state route: request -> reply (s)
    watch_reruns: int = 0  # page reruns the watcher asked for (a state that differed)
    poll_gaps: list[float] = field(default_factory=list)  # between finished polls (s)
    reconnects: int = 0
    reconnect_s: list[float] = field(default_factory=list)  # closed -> page drawn again
    identity_after: list[str] = field(default_factory=list)  # the name the page showed after a reconnect
    saved_after_reconnect: int = 0
    errors: list[str] = field(default_factory=list)
    after_send: list[str] = field(default_factory=list)  # what the page drew after "Send answer"
    finished_after_send: list[int] = field(default_factory=list)  # script_finished statuses since


class Phone:
    def __init__(self, index: int, base: str, code: str, token: str | None, name: str | None) -> None:
        self.log = PhoneLog(index)
        self.base, self.code, self.token, self.name = base, code, token, name
        self.query = urllib.parse.urlencode({"room": code})
        self.cookies = {"ndcg_route": f"phone-{index}"}
        if token:
            self.cookies[f"ndcg_student_{code}"] = token
        self.page_hash = ""
        self.fragment = ""
        self.interval = 0.0
        self.answer_id = self.button_id = ""
        self.ws = None
        self._poll_sent: float | None = None
        self._last_poll_done: float | None = None
        self._running_fragment = False
        self._saved = asyncio.Event()
        self._drawn = asyncio.Event()
        self._closing = False
        self.watch: tuple[str, dict] | None = None  # the watcher's widget id and data, as last drawn
        self._quiet_until = 0.0

    def _headers(self) -> dict[str, str]:
        return {"Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items())}

    async def load_html(self, http) -> None:
        """The page's HTML and the scripts and style sheets it names, as a new browser fetches them."""
        url = f"{self.base}/class?{self.query}"
        headers = {**self._headers(), "Accept-Encoding": "gzip, deflate"}  # as a browser asks
        html = await http(url, headers)
        if html[:2] == b"\x1f\x8b":
            html = gzip.decompress(html)
        for asset in dict.fromkeys(ASSET.findall(html.decode("utf-8", "replace"))):
            await http(urllib.parse.urljoin(url, asset), headers)

    async def connect(self) -> None:
        ws_url = self.base.replace("http://", "ws://") + "/_stcore/stream"
        self.ws = await connect(
            ws_url,
            subprotocols=["streamlit"],
            additional_headers=self._headers(),
            max_size=None,
            open_timeout=60,
            ping_interval=None,
        )
        self._drawn.clear()
        await self.ws.send(rerun(self.query, "", url=f"{self.base}/class"))

    def _element(self, el, now: float) -> None:
        kind = el.WhichOneof("type")
        if kind == "text_input":
            if el.text_input.label == "Your name" and self.log.name_box is None:
                self.log.name_box = now
            elif el.text_input.label == "Your answer":
                self.answer_id = el.text_input.id
        elif kind == "bidi_component" and el.bidi_component.component_name == "ndcg_room_watch":
            self.watch = (el.bidi_component.id, json.loads(el.bidi_component.json))
        elif kind == "button" and el.button.is_form_submitter and el.button.label == "Send answer":
            self.button_id = el.button.id
        if self.log.sent is not None and self.log.saved is None and kind in ("alert", "markdown"):
            self.log.after_send.append(f"{kind}: {getattr(el, kind).body[:60]}")
        if kind == "alert" and el.alert.body.startswith("Saved"):
            if self.log.sent is not None and self.log.saved is None:
                self.log.saved = now
                self._saved.set()
            if self.log.reconnects and self._reconnected_at is not None:
                self.log.saved_after_reconnect += 1
        elif kind == "markdown" and self.log.reconnects and self._reconnected_at is not None:
            found = re.search(r"you are (.+)$", el.markdown.body)
            if found:
                self.log.identity_after.append(found.group(1).replace("\\", ""))

    _reconnected_at: float | None = None

    async def _read(self) -> None:
        async for raw in self.ws:
            now = time.monotonic()
            msg = ForwardMsg.FromString(raw)
            kind = msg.WhichOneof("type")
            if kind == "delta":
                if msg.delta.WhichOneof("type") == "new_element":
                    self._element(msg.delta.new_element, now)
            elif kind == "navigation":
                self.page_hash = msg.navigation.page_script_hash
            elif kind == "auto_rerun":
                self.fragment, self.interval = msg.auto_rerun.fragment_id, msg.auto_rerun.interval
            elif kind == "script_finished":
                if self.log.sent is not None and self.log.saved is None:
                    self.log.finished_after_send.append(msg.script_finished)
                if msg.script_finished == FRAGMENT_DONE:
                    if self._poll_sent is None:
                        continue
                    self.log.polls.append(now - self._poll_sent)
                    if self._last_poll_done is not None:
                        self.log.poll_gaps.append(now - self._last_poll_done)
                    self._last_poll_done = now
                    self._running_fragment = False
                    self._poll_sent = None
                else:
                    if msg.script_finished != PAGE_DONE:  # a fragment run stopped early: asked again
                        self._running_fragment, self._poll_sent = False, None
                        continue
                    if self.log.page_done is None:
                        self.log.page_done = now
                    if self._reconnected_at is not None:
                        self.log.reconnect_s.append(now - self._reconnected_at)
                        self._reconnected_at = None
                    self._drawn.set()

    async def _poll(self) -> None:
        """The page's auto-rerun timer: every interval, ask for the fragment again."""
        while True:
            await asyncio.sleep(self.interval or 2.0)
            if self.fragment and self.page_hash and self.ws is not None and not self._running_fragment:
                self._running_fragment = True
                self._poll_sent = time.monotonic()
                try:
                    await self.ws.send(rerun(self.query, self.page_hash, fragment=self.fragment))
                except ConnectionClosed:
                    self._running_fragment = False

    async def _ask(self, path: str) -> tuple[int, str | None]:
        """``GET path`` through the proxy with the phone's cookies: (HTTP status, the reply's state)."""
        url = urllib.parse.urlsplit(self.base)
        reader, writer = await asyncio.open_connection(url.hostname, url.port)
        try:
            cookie = self._headers()["Cookie"]
            writer.write(
                f"GET /{path} HTTP/1.1\r\nHost: {url.netloc}\r\nCookie: {cookie}\r\n"
                "Connection: close\r\n\r\n".encode()
            )
            await writer.drain()
            reply = await reader.read()
        finally:
            writer.close()
        head, _, body = reply.partition(b"\r\n\r\n")
        status = int(head.split()[1])
        return status, json.loads(body).get("state") if status == 200 else None

    async def _watch(self) -> None:
        """The page's watcher: every interval, ask the route; rerun the page when the state moved."""
        while True:
            every = (self.watch[1]["every"] / 1000) if self.watch else 2.0
            await asyncio.sleep(every)
            if self.watch is None or self.ws is None or time.monotonic() < self._quiet_until:
                continue
            wid, data = self.watch
            t0 = time.monotonic()
            try:
                status, state = await self._ask(data["path"])
            except (OSError, ValueError, IndexError) as err:
                self.log.errors.append(f"ask: {type(err).__name__}")
                continue
            self.log.asks.append(time.monotonic() - t0)
            if status == 200 and state and state != data["drawn"]:
                self._quiet_until = time.monotonic() + 2 * every
                self.log.watch_reruns += 1
                trigger = json.dumps([{"event": "changed", "value": state}])
                widgets = [(f"{wid}__events", "json_trigger_value", trigger)]
                with contextlib.suppress(ConnectionClosed):
                    page = f"{self.base}/class"
                    await self.ws.send(rerun(self.query, self.page_hash, widgets=widgets, url=page))

    async def run(self, stop: asyncio.Event) -> None:
        """Stay connected until ``stop``, polling; reconnect when the socket closes."""
        poller = asyncio.create_task(self._poll())
        watcher = asyncio.create_task(self._watch())
        try:
            while not stop.is_set():
                reader = asyncio.create_task(self._read())
                stopper = asyncio.create_task(stop.wait())
                done, _ = await asyncio.wait({reader, stopper}, return_when=asyncio.FIRST_COMPLETED)
                if stopper in done:
                    reader.cancel()
                    break
                stopper.cancel()
                if reader.exception() is not None and not isinstance(reader.exception(), ConnectionClosed):
                    self.log.errors.append(f"{type(reader.exception()).__name__}: {reader.exception()}")
                # The socket closed under us: the page waits a moment and reconnects through the proxy.
                self.log.reconnects += 1
                self._reconnected_at = time.monotonic()
                self._running_fragment = False
                await asyncio.sleep(1.0)
                for _attempt in range(30):
                    try:
                        await self.connect()
                        break
                    except (TimeoutError, OSError, InvalidStatus) as err:
                        self.log.errors.append(f"reconnect: {type(err).__name__}")
                        await asyncio.sleep(1.0)
        finally:
            poller.cancel()
            watcher.cancel()
            if self.ws is not None:
                await self.ws.close()

    async def answer(self, at: float, answer: str) -> None:
        """Press "Send answer" with ``answer`` typed, at ``at`` (once the page is drawn)."""
        await asyncio.sleep(max(0.0, at - time.monotonic()))
        await self._drawn.wait()
        if not (self.answer_id and self.button_id):
            self.log.errors.append("no answer box on the page")
            return
        self.log.sent = time.monotonic()
        widgets = [(self.answer_id, "string_value", answer), (self.button_id, "trigger_value", True)]
        await self.ws.send(rerun(self.query, self.page_hash, widgets=widgets, url=f"{self.base}/class"))
