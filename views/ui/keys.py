"""Every session-state key the app reads or writes, named once.

Pages and helpers read and write ``st.session_state`` only through these names (a test in
``tests/app/test_session_keys.py`` fails on a key spelled in two modules, and on a session key written
as a literal or an attribute). The values are the keys Streamlit stores: the AppTest tests and the
browser tests' ``.st-key-<key>`` selectors use the same strings.

A prefix says whose a key is: ``pg_`` the playground's list, shared by every page; ``learn_``,
``pr_`` (Practice), ``cl_`` (Class), ``cmp_`` and ``lib_`` (Explore), ``ds_`` (Data sets); a leading
``_`` marks bookkeeping no widget shows. Widgets whose value no code reads from the session (a
button, a keyed container for the page's styles) keep their key at the one place that draws them.
"""

from __future__ import annotations

# ------------------------------------------------------------------ script runs (views.ui.session)

RUN = "_run"  # the number of this script run
SESSION_ID = "_session_id"  # a random name of this session: its own rate-limit buckets


def drawn(tag: str) -> str:
    """The run in which the widgets tagged ``tag`` were last drawn."""
    return f"_drawn_{tag}"


def kept(key: str) -> str:
    """A widget's value kept across page changes (non-widget state)."""
    return f"_kept_{key}"


# ------------------------------------------------------------------ language (views.ui.language)

UI_LANG = "ui_lang"  # the session's language (a code of ndcg_core.i18n.LANGUAGES)
LANG_WARNINGS = "lang_warnings"  # (the language a link left in use, what its lang got wrong)
LANG_SWITCH = "lang_switch"

# ------------------------------------------------------------------ the shared list and formula

PG_ITEMS = "pg_items"  # the ranking: a tuple of Items
PG_POOL = "pg_pool"  # judged items the ranking did not retrieve
PG_SPEC = "pg_spec"  # the playground formula's settled Spec (Playground, Learn, Explore)
PG_EXAMPLE = "pg_example"  # the worked example loaded last (its printed figures show)
PG_MESSAGES = "pg_messages"  # complaints about the last change (a bad quick entry, a bad file)
PG_URL = "pg_url"  # the shared state's share-link parameters last written or read
PG_LINKED = "pg_linked"  # True when the session opened on a link that carried a list
PG_OPENED = "pg_opened"  # the pages shown once in this session (their opening list was considered)
PG_URL_WARNINGS = "pg_url_warnings"  # what the share link got wrong
PG_HISTORY = "pg_history"  # undo and redo
PG_MOVE_ID = "pg_move_id"  # the item "Move up/down" moves
PG_STATE_FILE = "pg_state_file"  # the uploader of a saved state
PG_SORT_VERSION = "pg_sort_version"  # bumped to redraw the drag list from the state
PG_SIDEBAR_INPUTS = "_pg_sidebar_inputs"  # the list as the sidebar last saw it
PG_BODY_RUNS = "_pg_body_runs"  # how many times the playground's body ran (a drag costs one)
PG_REDRAWN = "_pg_redrawn"  # this run redraws a run whose list changed after its numbers were drawn
PG_EXPORT = "pg_export"  # the playground's export panel (open or closed)
QUICK_ENTRY = "quick_entry"
CHART = "chart"  # the playground's chart choice
CHART_SENT = "_chart_sent"  # a plotly chart reached this session's browser


def drag_list(version: int) -> str:
    """The drag list's widget (a new one, and key, whenever the items are set anew)."""
    return f"sort_{version}"


#: The formula controls (views.ui.formula): a control's key is its scope's prefix and its name.
PG_FORMULA = ""  # the playground's, kept short: k, gain, discount, ... (as the share link names them)
DS_FORMULA = "ds_"  # the Data sets page's

# Item tables (views.ui.items): the editable table of a kind of list keeps its starting rows, their
# item ids and the table version under keys made from its kind.
ITEMS = "editor"  # the ranking (the Playground and Learn draw the same table)
POOL = "pool"  # the judged items not retrieved
CMP = "cmp"  # Explore's judged items
PG_ADDED_ID_FLOOR = "_pg_added_id_floor"  # above every id handed to an added row


def table(kind: str, version: int) -> str:
    """The table editor's widget of ``kind``, at ``version``."""
    return f"{kind}_{version}"


def table_version(kind: str) -> str:
    """Bumped to start the table of ``kind`` anew from the list (a list loaded or typed elsewhere)."""
    return f"pg_{kind}_version"


def table_base(kind: str) -> str:
    """The starting rows of the table of ``kind`` (a DataFrame in entry order)."""
    return f"pg_{kind}_base"


def table_base_ids(kind: str) -> str:
    """The item ids of the starting rows of the table of ``kind``."""
    return f"{table_base(kind)}_ids"


def table_base_version(kind: str) -> str:
    """The table version the starting rows of ``kind`` were built for."""
    return f"{table_base(kind)}_version"


def table_added_ids(kind: str) -> str:
    """The item ids handed to rows added to the table of ``kind``."""
    return f"pg_{kind}_added_ids"


#: Bumped together when a whole list is put in place: the drag list and both item tables redraw.
LIST_VERSIONS = (PG_SORT_VERSION, table_version(ITEMS), table_version(POOL))


# ------------------------------------------------------------------ Learn

LEARN_STEP = "learn_step"
LEARN_PRESENT = "learn_present"
LEARN_URL = "learn_url"  # the page's share-link parameters last written or read
LEARN_WARNINGS = "learn_warnings"  # (the state a link gave, what that link got wrong)
LEARN_PREDICTIONS = "learn_predictions"  # the lesson's predictions (ndcg_core.teaching.predictions)
LEARN_QUESTION = "learn_question"  # the question the prediction buttons check
LEARN_FOCUS = "learn_focus"  # (request number, what was done): where the keyboard focus goes next
LEARN_EXAMPLE = "learn_example"
LEARN_PRESENT_TOGGLE = "learn_present_toggle"
LEARN_SHOWN = "learn_shown"  # steps whose answer the presenter revealed to the room
LEARN_CHOICE = "learn_choice_"  # + the step: a choice prediction's radio
LEARN_ROOM = "learn_room"  # the Class room (its code) the presenter's lesson drives, or None
LEARN_GIVEN_KEY = "learn_given_key"  # (room, key) a link brought, for the page to check and take off
LEARN_ROOM_REFUSED = "learn_room_refused"  # the room a link named that this browser cannot run
LEARN_ROOM_ASKED = "learn_room_asked"  # {(room, step): (definition JSON, question number)} sent to the room
LEARN_ROOM_CURRENT = (
    "learn_room_current"  # (room, question number) this page last made the room's current one
)
LEARN_ROOM_PROBLEM = "learn_room_problem"  # why the step's question could not be sent (a coded message)


def learn_choice(step: int) -> str:
    return f"{LEARN_CHOICE}{step}"


def learn_guess(step: int) -> str:
    """A numeric prediction's text box."""
    return f"learn_guess_{step}"


# ------------------------------------------------------------------ Practice

PR_SESSION = "pr_session"  # the page's one value (ndcg_core.teaching.practice.session.PracticeSession)
PR_VERDICT = "pr_feedback"  # the verdict's container (browser tests find it)
PR_HINT_PANEL = "pr_hints"  # the hints' container
PR_URL = "pr_url"  # the page's share-link parameters last written or read
PR_W_LEVEL = "pr_w_level"  # the widgets mirroring the state above
PR_W_KIND = "pr_w_kind"
PR_W_MISSED = "pr_w_missed"


def pr_answer(exercise: str) -> str:
    """A numeric exercise's answer box."""
    return f"pr_answer_{exercise}"


def pr_choice(exercise: str) -> str:
    """A choice exercise's radio."""
    return f"pr_choice_{exercise}"


# ------------------------------------------------------------------ Class

CL_LINK = "cl_link"  # the page's state: room, projector (ndcg_core.teaching.pages.ClassState)
CL_LINK_WARNINGS = "cl_link_warnings"  # what the last link got wrong (coded messages), shown as text
CL_URL = "cl_url"  # the page's share-link parameters last written or read
CL_TOKEN = "cl_token"  # {room: this student's server-issued id, or None}: from a join or the cookie
CL_KEYS = "cl_keys"  # {room: its lecturer key, or None}: from a link, a created room or the cookie
CL_GIVEN_KEY = "cl_given_key"  # (room, key) a link brought, for the page to check and take off the link
CL_KEY_REFUSED = "cl_key_refused"  # the room whose link brought a key that is not its key
CL_GIVEN_ONE_TIME = "cl_given_one_time"  # (room, one-time lecturer code) a link brought, to redeem once
CL_ONE_TIME_REFUSED = "cl_one_time_refused"  # (room, "unusable" or seconds to wait): a code not taken
CL_ONE_TIME_MADE = "cl_one_time_made"  # (room, one-time code) this session made for another device
CL_ID_REFUSED = "cl_id_refused"  # (room, why): a student id that was not taken ("link" or "unknown")
CL_OPENED = "cl_opened"  # rooms this session found: no rate limit on looking them up again
CL_TRIED = "cl_tried"  # wrong room codes this session already counted against its client
CL_DB_ERROR = "cl_db_error"  # a callback could not reach the database
CL_CODE_INPUT = "cl_code_input"
CL_LANDING_ERROR = "cl_landing_error"
CL_NAME = "cl_name"
CL_NAME_ERROR = "cl_name_error"
CL_ANSWER_ERROR = "cl_answer_error"
#: The question a student sent an answer to, until a page run has drawn what became of it.
CL_UNCONFIRMED = "cl_unconfirmed"
CL_SOURCE = "cl_source"  # the lecturer's question source: a Practice exercise or the playground's list
CL_KIND = "cl_kind"
CL_LEVEL = "cl_level"
CL_ASK = "cl_ask"  # what a question on a list asks: DCG, IDCG, NDCG, a cell, the best order
CL_ASK_ERROR = "cl_ask_error"  # (source, coded message): why the last question could not be asked
CL_CELL = "cl_cell"  # which step-table cell a question on a list asks for ...
CL_POSITION = "cl_position"  # ... at which position
CL_GRADES = "cl_grades"  # the lecturer's own list: its grades, top first ...
CL_LABELS = "cl_labels"  # ... its labels (optional) ...
CL_GAIN = "cl_gain"  # ... and its formula: the gain ...
CL_DISCOUNT = "cl_discount"  # ... the discount ...
CL_K = "cl_k"  # ... and the cutoff (0: the whole list)
CL_MC_PROMPT = "cl_mc_prompt"  # the lecturer's multiple-choice question: its prompt ...
CL_MC_RIGHT = "cl_mc_right"  # ... and which option is right (its options: cl_mc_option)
CL_COUNTDOWN = "cl_countdown"  # seconds until the question closes by itself (0: no countdown)
CL_FOCUS = "cl_focus"  # (request number, CSS selector): where the keyboard focus goes after a press


def cl_view(room: str) -> str:
    """The question the lecturer looks at, in a room."""
    return f"cl_view_{room}"


def cl_mc_option(n: int) -> str:
    """Option ``n`` (from 0) of the lecturer's multiple-choice question."""
    return f"cl_mc_option_{n}"


def cl_answer(question: int) -> str:
    return f"cl_answer_{question}"


def cl_choice(question: int) -> str:
    return f"cl_choice_{question}"


def cl_order(question: int) -> str:
    return f"cl_order_{question}"


# ------------------------------------------------------------------ saved progress (views.ui.learner)

LR_TOKEN = "lr_token"  # this session's learner token (None until the server issued one)
LR_READ = "_lr_read"  # this session has read its cookie (on its first run)
LR_MESSAGE = "lr_message"  # why this browser's saved progress was not found
LR_NOTE = "_lr_note"  # (where, kind, text): what became of a continue code, said once
LR_OFFER = "_lr_offer"  # (where, token) a continue code brought, while the student chooses
LR_CODES = "_lr_codes"  # continue codes this session has tried already (Back to one is not another try)
LR_TRANSFER = "_lr_transfer"  # (code, expires) this session made to continue on another device
LR_CODE_INPUT = "lr_code_input"  # the box to type a continue code in
LR_LOADED = "_lr_loaded"  # saved documents a page has yet to put in place, per section
LR_SAVED = "_lr_saved"  # the documents last saved, per section (an unchanged one is not written again)
LR_FAILED = "_lr_failed"  # the database could not be reached: progress is kept in this session only
LR_SENT = "_lr_sent"  # the cookies the browser sent when this session started (read once)
LR_COOKIES = "_lr_cookies"  # the cookies this browser should hold (name to value)
LR_COOKIE_SECONDS = "_lr_cookie_seconds"  # how long each of them is kept, when not a year (name to seconds)

# ------------------------------------------------------------------ the way in (views.ui.start)

START_DONE = "start_done"  # the start panel was dismissed, or a path taken
START_FIRST = "_start_first"  # the session's first page, and whether its link was bare
NAV_PAGE = "_nav_page"  # the page this session's last run drew
NAV_CHANGES = "_nav_changes"  # how many times this session has moved to another page

# ------------------------------------------------------------------ Explore

CMP_JUDGED = "cmp_judged"
CMP_COUNT = "cmp_count"  # how many rankings are compared
CMP_LAST = "cmp_last"  # the last valid comparison
CMP_MESSAGE = "cmp_message"
CMP_BASE_DEMO = "cmp_base_demo"
LIB_SCORES = "lib_scores"
LIB_SNIPPET = "lib_snippet"
#: The rankings' text boxes (plus ``_name``: their names).
CMP_RANKS = tuple(f"cmp_rank_{i}" for i in range(4))


def rank_name(rank: str) -> str:
    return f"{rank}_name"


GO_TO_PLAYGROUND = "go_to_playground"  # a callback opened a list in the playground (Explore, Data sets)
GO_TO_EXPLORE = "go_to_explore"  # a callback opened runs' rankings side by side in Explore (Data sets)

# ------------------------------------------------------------------ Data sets

DS_SPEC = "ds_spec"  # the Data sets formula's settled Spec
DS_DATA = "ds_data"  # the loaded data set: the qrels' and every run's name and store key
DS_MESSAGE = "ds_message"  # why the uploaded files could not be scored: (file kind, name, error)s
DS_PAIR = "ds_pair"  # the files and spec last tried (scored once, not on every run)
DS_QUERY = "ds_query"  # the query to open
DS_PAGE = "ds_page"  # the per-query table's page (views.ui.tables.paged)
DS_UPLOAD_VERSION = "ds_upload_version"  # bumped for fresh uploaders once a pair is loaded
DS_EMPTIED = "ds_emptied"  # per file kind: how often its uploader was emptied of a file that failed to read
DS_FAILED = "ds_failed"  # per file kind: the (name, problem)s of the files that failed to read, now let go
DS_DISMISS = "ds_dismiss"  # the button that dismisses the messages of files that failed to read
DS_DUPLICATES = "ds_duplicates"  # documents judged or retrieved twice: "error" or "max"
DS_SHOWN = "ds_shown"  # the run whose averages, histogram and table show
DS_BASELINE = "ds_baseline"  # the run the comparison measures the others against
DS_TEST = "ds_test"  # the paired test that marks significance
DS_CORRECTION = "ds_correction"  # the correction for testing several pairs
DS_VERSUS = "ds_versus"  # the run whose per-query deltas show
DS_DELTA_QUERY = "ds_delta_query"  # the query to open side by side in Explore
DS_DELTA_PAGE = "ds_delta_page"  # the per-query deltas table's page
DS_ROBUST = "ds_robust"  # the "does the order depend on the formula?" check was asked for
DS_ROBUST_FLIP = "ds_robust_flip"  # the flipped pair (and variant) whose queries show
DS_ROBUST_QUERY = "ds_robust_query"  # the query of that flip to open side by side in Explore


def ds_file(kind: str, version: int, emptied: int = 0) -> str:
    """The uploader of a ``qrels`` or ``run`` file (a new one once loaded, or emptied of a bad file)."""
    return f"ds_{kind}_file_{version}" + (f"_{emptied}" if emptied else "")


def ds_parsed(kind: str) -> str:
    """The uploaded files of ``kind`` once read: file id -> (name, store key or None, error or None)."""
    return f"ds_parsed_{kind}"


def ds_remove(n: int) -> str:
    """The button that removes the n-th loaded run."""
    return f"ds_remove_{n}"
