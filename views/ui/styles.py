"""Every stylesheet of the app, and the one module that names Streamlit's page by its DOM.

Streamlit's ``data-testid`` attributes and its ``stXxx`` class names are not API: they change between
releases. Styles that need them live here and nowhere else (a test checks), so a Streamlit upgrade is
checked in one file; the rest of the app styles its own elements by their keys (``.st-key-<key>``,
which Streamlit documents) and its own classes.

- :data:`APP`: every page (app.py draws it once a run).
- :func:`screen_only`: presenter mode and the projector screen show the page alone, without
  Streamlit's sidebar, header and toolbar (:data:`PRESENT`, :data:`PROJECTOR`).
- :data:`CLASS`: Class mode's phone and lecturer pages.
- :data:`SIDEBAR_CLOSE_BUTTON`, :data:`SIDEBAR_OPEN`: where a script finds the sidebar.
- :func:`for_language`: what a page in another language than English hides of Streamlit's own
  English; :data:`STREAMLIT_TEXTS`: where the rest of it is, for the page script to translate.
"""

from __future__ import annotations

from ndcg_core.i18n import N_

#: Where a script finds the sidebar's close button, and the sidebar while it is open.
SIDEBAR_CLOSE_BUTTON = '[data-testid="stSidebarCollapseButton"] button'
SIDEBAR_OPEN = '[data-testid="stSidebar"][data-collapsed="false"]'

#: Every page's styles (no angle brackets inside: st.html takes a style with them for HTML).
APP = """
/* Projector-friendly density: less empty space at the top, bigger headline numbers. */
.block-container { padding-top: 3.8rem; padding-bottom: 2rem; }
[data-testid="stMetricValue"] { font-size: 1.75rem; }
[data-testid="stMetricLabel"] p { font-size: 1.05rem; font-weight: 600; }
[data-testid="stSidebar"] [data-testid="stExpander"] button p { text-align: left; }
/* Long formulas scroll inside their own box on a phone instead of being cut off. */
.katex-display { overflow-x: auto; overflow-y: hidden; padding-bottom: 2px; }
/* The playground's step tables (HTML, see views/screens/playground.py): rows beyond k in grey italics, below
   a dashed line (not by colour alone: WCAG 1.4.1), their grey 4.8:1 on white. */
.step-table-wrap { max-height: 420px; overflow: auto; border: 1px solid #e5e7eb; border-radius: 0.5rem; }
table.step-table { border-collapse: collapse; width: 100%; font-size: 0.9rem; color: #1e293b; }
table.step-table th, table.step-table td { padding: 0.25rem 0.5rem; border-bottom: 1px solid #e5e7eb;
  white-space: nowrap; }
table.step-table th { position: sticky; top: 0; background: #f8fafc; text-align: left; font-weight: 600;
  cursor: help; }
table.step-table .num { text-align: right; font-variant-numeric: tabular-nums; }
table.step-table tr.beyond td { color: #64748b; font-style: italic; }
table.step-table tr:not(.beyond) + tr.beyond td { border-top: 2px dashed #475569; }
/* Accessibility (issue 28). Keyboard focus: a solid ring, 6.7:1 on white, set off from the control
   so it never sits on a coloured button. */
:focus-visible { outline: 2px solid #1d4ed8 !important; outline-offset: 2px; }
/* Where the focused input is clipped (text, number and select boxes) or a 1 px box (check boxes, toggles,
   radio buttons), the ring goes around what the eye sees. */
.react-aria-TextField:has(input:focus-visible), .react-aria-ComboBox:has(input:focus-visible),
label:has(> span > input:focus-visible) {
  outline: 2px solid #1d4ed8; outline-offset: 2px; border-radius: 0.5rem; }
.react-aria-TextField input:focus-visible, .react-aria-ComboBox input:focus-visible {
  outline: none !important; }
/* A page's title is its one h1, its sections h2 (.streamlit/config.toml sizes them): spaced as the h3
   and h4 they were. (No angle brackets in this file: st.html takes it for HTML then, not a style.) */
[data-testid="stMain"] [data-testid="stMarkdownContainer"] h1 { padding-top: 0.75rem; }
[data-testid="stMain"] [data-testid="stMarkdownContainer"] h2 { padding-top: 0.5rem; }
/* Text only screen readers read (views/ui/a11y.py's live region, the step tables' captions). */
.ndcg-sr-only, table.step-table caption, table.learn-table caption {
  position: absolute; width: 1px; height: 1px; margin: -1px; padding: 0; border: 0; overflow: hidden;
  clip: rect(0 0 0 0); white-space: nowrap; }
/* Elements that only carry data for views/ui/a11y.py's script take no room (not even a gap). */
.stElementContainer:has(.ndcg-quiet) { display: none; }
/* Elements only a screen reader reads (a projected chart's numbers) take no room either, and stay read. */
.stElementContainer:has(> .stHtml > .ndcg-sr-only:only-child) { position: absolute; width: 1px; height: 1px;
  overflow: hidden; clip: rect(0 0 0 0); }
/* A session's first chart is a placeholder for a moment (views.ui.charts.chart): its caption only,
   not the grey skeleton Streamlit draws while the component that asks for the chart loads. */
[class*="st-key-pending_chart_"] [data-testid="stSkeleton"] { visibility: hidden; }
/* The playground's metric row keeps its height (97 px drawn, 71 px on a phone) while the browser loads
   the metric's script, the first time a session shows a metric: the list and buttons below it stay put. */
.st-key-metric_row_pg { min-height: 6.0625rem; }
/* Phones: the metric rows (of the playground and of Learn) and the playground's button rows stay
   one row each. */
@media (max-width: 640px) {
  [class*="st-key-metric_row_"], [class*="st-key-button_row_"] { flex-wrap: nowrap; }
  [class*="st-key-metric_row_"] > div, [class*="st-key-button_row_"] > div { flex: 1 1 0; min-width: 0; }
  [class*="st-key-metric_row_"] { gap: 0.4rem; }
  .st-key-metric_row_pg { min-height: 4.4375rem; }
  [class*="st-key-metric_row_"] [data-testid="stMetric"] > div { padding: 0.5rem; }
  [class*="st-key-metric_row_"] [data-testid="stMetricValue"] { font-size: 1.2rem; }
  [class*="st-key-metric_row_"] [data-testid="stMetricLabel"] p { font-size: 0.8rem; }
  [class*="st-key-button_row_"] { gap: 0.3rem; }
  [class*="st-key-button_row_"] button { padding: 0.25rem 0.2rem; width: 100%; }
  [class*="st-key-button_row_"] button p { font-size: 0.85rem; }
  /* A formula too long for the screen breaks after a + or = (KaTeX's own break points), and a step
     table's headers wrap, so every column fits without scrolling sideways. */
  .katex-display > .katex { white-space: normal; }
  table.step-table { font-size: 0.78rem; }
  table.step-table th, table.step-table td { padding: 0.25rem 0.3rem; }
  table.step-table th { white-space: normal; vertical-align: bottom; }
}
/* Learn's step tables: the grid on a wider screen; on a phone the same table as HTML, whose headers
   wrap, so every column fits 390 px (views/screens/learn.py draws both). */
[data-testid="stElementContainer"]:has(> [data-testid="stHtml"] .learn-phone-table) { display: none; }
@media (max-width: 640px) {
  [data-testid="stElementContainer"]:has(> [data-testid="stHtml"] .learn-phone-table) { display: block; }
  :is(.st-key-learn_steps, .st-key-learn_ideal)
    [data-testid="stElementContainer"]:has([data-testid="stDataFrame"]) {
    display: none;
  }
}
/* Streamlit's element toolbar (fullscreen, download, search) floats just above a table or chart: room
   above them keeps it off the title or caption there. Plotly's own toolbar, over a chart's title on a
   phone, is left out there (the element toolbar's fullscreen stays). */
[data-testid="stElementContainer"]:has([data-testid="stDataFrame"], [data-testid="stPlotlyChart"]) {
  margin-top: 2rem; /* the toolbar sits 44 px above its element; the gap between elements is 16 px */
}
@media (max-width: 640px) {
  [data-testid="stPlotlyChart"] .modebar-container { display: none; }
}
/* A disabled control's label (the Data sets formula under a library preset, k with "whole list"):
   Streamlit fades it to 2.6:1. Still set apart from enabled labels, but readable: 5.4:1 on the
   controls' grey panel (WCAG 1.4.3; the control itself shows it is disabled). */
[data-testid="stElementContainer"]:has(input:disabled) [data-testid="stWidgetLabel"] p,
[data-testid="stElementContainer"]:has([aria-disabled="true"]) [data-testid="stWidgetLabel"] p {
  color: #666665 !important;
}
/* Class mode's answers as bars (views/room/bars.py), flat, one a line: the label (right-aligned to
   the bar), the bar, the count. A subgrid lines every bar up behind the widest label; the right one is
   green and marked with a tick, a diagnosed mistake's amber and named. */
.ndcg-bars { margin: 0; }
.ndcg-bars figcaption { font-size: 1.05rem; margin: 0 0 0.4rem 0; color: #0f172a; }
.ndcg-bars-list { display: grid; grid-template-columns: max-content minmax(3rem, 1fr) max-content;
  column-gap: 0.6rem; row-gap: 0.4rem; align-items: center; list-style: none; margin: 0; padding: 0; }
.ndcg-bar { display: grid; grid-column: 1 / -1; grid-template-columns: subgrid; align-items: center;
  margin: 0; padding: 0; }
.ndcg-bar-label { font-size: 1.05rem; line-height: 1.2; color: #0f172a; text-align: right; max-width: 20rem;
  overflow-wrap: anywhere; }
.ndcg-bar-track { height: 1.7rem; border-left: 2px solid #475569; }
.ndcg-bar-fill { display: block; height: 100%; background: #4f46e5; }
.ndcg-bar-right .ndcg-bar-fill { background: #15803d; }
.ndcg-bar-mistake .ndcg-bar-fill { background: #b45309; }
.ndcg-bar-n { font-weight: 800; font-size: 1.4rem; line-height: 1.1; color: #0f172a; min-width: 1.2ch; }
.ndcg-bar-right .ndcg-bar-label { font-weight: 700; color: #14532d; }
.ndcg-bar-mistake .ndcg-bar-label { font-weight: 700; color: #7c2d12; }
.ndcg-bar-empty .ndcg-bar-n { color: #64748b; }
/* The lesson's report (views/room/report.py): a table of the room's questions. */
table.ndcg-report { border-collapse: collapse; width: 100%; font-size: 0.95rem; color: #0f172a; }
table.ndcg-report th, table.ndcg-report td { padding: 0.3rem 0.5rem; border-bottom: 1px solid #cbd5e1;
  text-align: left; vertical-align: top; overflow-wrap: break-word; }
table.ndcg-report th { background: #f1f5f9; font-weight: 700; }
table.ndcg-report .num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
table.ndcg-report tr.ndcg-report-hardest td { background: #fef3c7; }
/* On a phone the right answer's column gives its width to the words (the CSV and PDF keep it). */
@media (max-width: 640px) { table.ndcg-report .ndcg-report-answer { display: none; } }
"""


def screen_only(padding: str) -> str:
    """The rules that leave a screen to the page alone: Streamlit's sidebar, header and toolbar hidden,
    the page's block ``padding`` (CSS) and full width."""
    return (
        """[data-testid="stSidebar"], [data-testid="stSidebarCollapsedControl"],
[data-testid="stExpandSidebarButton"], header[data-testid="stHeader"], [data-testid="stToolbar"],
[data-testid="stDecoration"] {
  display: none !important;
}
[data-testid="stMainBlockContainer"], .block-container {
  padding: """
        + padding
        + """ !important; max-width: 100% !important;
}
"""
    )


#: Presenter mode (Learn): the stage sized in the screen's width (vw), so one layout serves 1280x720
#: and 1920x1080.
PRESENT = (
    "<style>\n"
    + screen_only("1.4vw 2.6vw 0.6vw 2.6vw")
    + """[data-testid="stMain"] { background: #ffffff; }
.st-key-learn_stage { color: #0b1220; gap: 0.7vw; }
.learn-head { display: flex; align-items: baseline; gap: 1.6vw; margin: 0; }
.learn-badge { font-size: 1.6vw; font-weight: 700; color: #ffffff; background: #1d4ed8;
  border-radius: 0.5vw; padding: 0.1vw 0.8vw; white-space: nowrap; }
.learn-title { font-size: 3.5vw; font-weight: 800; line-height: 1.1; margin: 0; color: #0b1220; }
.learn-text p { font-size: 1.4vw; line-height: 1.28; margin: 0 0 0.3vw 0; color: #0b1220; }
.learn-text p.ask { font-weight: 700; color: #1d4ed8; }
.learn-text .answer { font-weight: 700; color: #047857; }
table.learn-table { border-collapse: collapse; font-size: 1.35vw; color: #0b1220; }
table.learn-table th, table.learn-table td { padding: 0.22vw 1.1vw; border-bottom: 2px solid #cbd5e1;
  font-size: 1.35vw; line-height: 1.2; }
table.learn-table th { text-align: left; border-bottom: 3px solid #0b1220; font-weight: 700; }
table.learn-table td.num, table.learn-table th.num { text-align: right; font-variant-numeric: tabular-nums; }
table.learn-table tr.beyond td { color: #6b7280; font-style: italic; }
table.learn-table tr:not(.beyond) + tr.beyond td { border-top: 3px dashed #475569; }
.st-key-learn_stage [data-testid="stMetricValue"] { font-size: 3.5vw; line-height: 1.1; }
.st-key-learn_stage [data-testid="stMetricLabel"] p { font-size: 1.5vw; }
.st-key-learn_stage [data-testid="stMetric"] { padding: 0.3vw 1vw; }
.st-key-learn_stage .katex { font-size: 1.55vw; color: #0b1220; }
.st-key-learn_nav button p { font-size: 1.1vw; }
.st-key-learn_nav { margin-top: 0.4vw; }
.st-key-learn_hidden_keys { display: none !important; }
/* The room menu and the whole lesson's downloads: out of the flow, top right, so the slide keeps its room. */
.st-key-learn_corner { position: fixed !important; top: 1.2vw; right: 2.6vw; left: auto !important;
  width: auto !important; z-index: 5; }
.learn-room-line { font-size: 1.6vw !important; line-height: 1.1; margin: 0; color: #0b1220; }
.learn-room-line b { font-size: 2.6vw; font-weight: 800; }
/* A room the lesson drives: its join panel on step 1, its answers beside the table. */
.st-key-learn_room_join p { font-size: 1.3vw; margin: 0; }
.st-key-learn_room_join img { width: min(15vw, 32vh); height: auto; display: block; }
.learn-room-code { font-size: 3.4vw !important; font-weight: 800; letter-spacing: 0.14em; line-height: 1.1;
  margin: 0; color: #0b1220; white-space: nowrap; }
.st-key-learn_room_join code { font-size: 1.1vw; white-space: pre-wrap !important; word-break: break-all; }
.learn-room-mistake { font-size: 1.1vw; line-height: 1.25; margin: 0; color: #0b1220; }
.st-key-learn_present_side .katex { font-size: 1.15vw; }
.st-key-learn_present_side .katex-display { margin: 0.1vw 0; }
.st-key-learn_present_side [data-testid="stMetricLabel"] p { font-size: 1.2vw; }
</style>
"""
)

#: The projector screen (Class): numbers 4.2vw (54 px at 1280, 81 px at 1920), the code 3.4vw; the QR
#: code as wide as the left column allows, and never taller than 46% of the screen's height; the
#: question 2.1vw and its list 1.9vw (40 and 36 px at 1920), for the back row (issue 42).
PROJECTOR = (
    "<style>\n"
    + screen_only("1.2vw 2vw 0.4vw 2vw")
    + """.st-key-cp_code p { font-size: 3.4vw !important; font-weight: 800; letter-spacing: 0.14em; margin: 0;
  line-height: 1.1; white-space: nowrap; }
.st-key-cp_join p { font-size: 1.15vw; margin: 0; }
.st-key-cp_join code { font-size: 1.1vw; white-space: pre-wrap; word-break: break-all; }
.st-key-cp_qr img { width: min(24vw, 46vh) !important; height: auto; display: block; }
.st-key-cp_prompt p { font-size: 2.1vw; font-weight: 700; line-height: 1.2; margin: 0; }
.st-key-cp_status p { font-size: 1.3vw; margin: 0; color: #334155; }
.st-key-cp_data p { font-size: 1.9vw; line-height: 1.25; margin: 0; }
.st-key-cp_numbers [data-testid="stMetricValue"], .st-key-cp_numbers [data-testid="stMetricValue"] * {
  font-size: 4.2vw !important; line-height: 1.05 !important; font-weight: 800;
}
.st-key-cp_numbers [data-testid="stMetricLabel"] p { font-size: 1.5vw !important; }
.st-key-cp_side [data-testid="stMarkdownContainer"] p { font-size: 1.9vw; line-height: 1.25; }
.st-key-cp_controls button p { font-size: 1vw; }
.st-key-cp_side [data-testid="stAlert"] p { font-size: 1.9vw; }
/* The bars at hall size, sharing the screen's height below the question (48% of it): labels 1.6vw
   (31 px at 1920), counts 3vw (58 px), each bar as thick as its line allows, up to 5vw. */
.st-key-cp_chart .ndcg-bars figcaption { font-size: 1.4vw; margin-bottom: 0.6vw; }
.st-key-cp_chart .ndcg-bars-list { column-gap: 1vw; row-gap: 0.8vw; height: 48vh;
  grid-auto-rows: minmax(min-content, 1fr); }
.st-key-cp_chart .ndcg-bar { align-self: stretch; }
.st-key-cp_chart .ndcg-bar-label { font-size: 1.6vw; max-width: 24vw; }
.st-key-cp_chart .ndcg-bar-track { height: min(100%, 5vw); min-height: 1.6vw; }
.st-key-cp_chart .ndcg-bar-n { font-size: 3vw; }
/* A projector screen opened on a phone: sizes in rem, as on any page. */
@media (max-width: 640px) {
  .st-key-cp_code p { font-size: 2rem !important; }
  .st-key-cp_join p, .st-key-cp_join code, .st-key-cp_controls button p { font-size: 0.9rem; }
  .st-key-cp_prompt p { font-size: 1.35rem; }
  .st-key-cp_status p, .st-key-cp_data p, .st-key-cp_side [data-testid="stMarkdownContainer"] p,
  .st-key-cp_side [data-testid="stAlert"] p { font-size: 1.05rem; }
  .st-key-cp_numbers [data-testid="stMetricValue"], .st-key-cp_numbers [data-testid="stMetricValue"] * {
    font-size: 2.6rem !important; }
  .st-key-cp_numbers [data-testid="stMetricLabel"] p { font-size: 1rem !important; }
  .st-key-cp_chart .ndcg-bars figcaption, .st-key-cp_chart .ndcg-bar-label { font-size: 1rem; }
  .st-key-cp_chart .ndcg-bars-list { height: auto; row-gap: 0.4rem; column-gap: 0.5rem; }
  .st-key-cp_chart .ndcg-bar-label { max-width: 45vw; }
  .st-key-cp_chart .ndcg-bar-track { height: 1.7rem; }
  .st-key-cp_chart .ndcg-bar-n { font-size: 1.5rem; }
}
</style>
"""
)

#: Class mode's pages: large touch targets on phones, the lecturer's live numbers large.
CLASS = """
<style>
.st-key-cl_student button, .st-key-cl_student input, .st-key-cl_landing button, .st-key-cl_landing input {
  min-height: 3rem; font-size: 1.15rem;
}
.st-key-cl_student [data-baseweb="select"] > div { min-height: 3rem; font-size: 1.15rem; }
.st-key-cl_student label p, .st-key-cl_student [data-testid="stMarkdownContainer"] p { font-size: 1.15rem; }
.st-key-cl_controls button { min-height: 3rem; font-size: 1.2rem; }
/* The lecturer's live numbers: as large as their half of the side column lets "Right 50%" be at
   1280x720 (4.5rem cut it to "5..."). */
.st-key-cl_live [data-testid="stMetricValue"], .st-key-cl_live [data-testid="stMetricValue"] * {
  font-size: clamp(2.5rem, 3.6vw, 4.5rem) !important; line-height: 1.1 !important; font-weight: 700;
}
.st-key-cl_live [data-testid="stMetricLabel"] p { font-size: 1.4rem; }
.st-key-cl_live [data-testid="stMarkdownContainer"] p { font-size: 1.35rem; }
.st-key-cl_prompt [data-testid="stMarkdownContainer"] p { font-size: 1.6rem; font-weight: 600; }
/* The join link wraps anywhere: a box that scrolled sideways could not be reached by keyboard. */
.st-key-cl_join_link code, .st-key-cl_lecturer_link code {
  white-space: pre-wrap !important; word-break: break-all;
}
/* The room code, read out and typed from the back of the hall: the side column's width at
   1280x720 and 1920x1080 (six letters with their spacing take about 4.9 em). */
.st-key-cl_code [data-testid="stMarkdownContainer"] p {
  font-size: clamp(2.2rem, 3.2vw, 3.8rem); font-weight: 700; letter-spacing: 0.12em; white-space: nowrap;
}
</style>
"""


#: Streamlit's own English that no public option translates: the "Press Enter to submit form" /
#: "Press Enter to apply" line a text box shows while focused (on a phone, over the placeholder).
#: Enter still submits; the Check button says what to do.
UNTRANSLATED = """
[data-testid="InputInstructions"] { display: none; }
"""


#: Streamlit's (and its plotly toolbar's) own English that no public option translates, where it
#: is drawn: (CSS selector, the attribute that holds it or "text" for the element's own text, the
#: English strings found there). "{x}" stands for what Streamlit fills in (a widget's label, a
#: file's name, a size). On a page in another language :func:`views.ui.a11y.page_setup`'s script
#: puts each translation in place, and keeps it there as Streamlit redraws; what a screen reader
#: says is translated with what is seen. Found by listing every string of each page in Chinese
#: (tests/browser/test_browser_i18n.py keeps that list free of English). One selector is one
#: entry: the script looks each up once whenever the page changes.
STREAMLIT_TEXTS: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    ('[data-testid="stSkipToContent"]', "text", (N_("Skip to main content"),)),
    ('[data-testid="stTopNav"]', "aria-label", (N_("App pages"),)),
    ('[data-testid="stSidebarNav"]', "aria-label", (N_("App pages"),)),  # the navigation on a phone
    ('[data-testid="stSidebar"]', "aria-label", (N_("Sidebar"),)),
    ('[data-testid="stSidebarCollapseButton"] button', "aria-label", (N_("Collapse sidebar"),)),
    ('[data-testid="stExpandSidebarButton"]', "aria-label", (N_("Expand sidebar"),)),
    ('[data-testid="stTooltipIcon"] button', "aria-label", (N_("Help"), N_("Help for {x}"))),
    ('[data-testid="stHeaderActionElements"] a', "aria-label", (N_("Link to heading"),)),
    ('[data-testid="stNumberInputStepDown"]', "aria-label", (N_("Decrement"),)),
    ('[data-testid="stNumberInputStepUp"]', "aria-label", (N_("Increment"),)),
    ('[data-testid="stSelectbox"] input', "placeholder", (N_("Choose an option"),)),
    ('[data-testid="stSelectbox"] button', "aria-label", (N_("Open"), N_("Close"))),
    (
        '[data-testid="stBaseButton-elementToolbar"]',
        "aria-label",
        (
            N_("Add row"),
            N_("Search"),
            N_("Show/hide columns"),
            N_("Fullscreen"),
            N_("Close fullscreen"),
            N_("Copy to clipboard"),
        ),
    ),
    ('[data-testid="stFileUploaderDropzoneInput"]', "aria-label", (N_("file upload"),)),
    ('[data-testid="stFileUploaderDropzone"] button', "text", (N_("Upload"),)),
    ('[data-testid="stFileUploaderDropzoneInstructions"]', "text", (N_("{x}MB per file"),)),
    ('[data-testid="stFileChips"] button', "aria-label", (N_("Add files"),)),
    ('[data-testid="stFileChip"] button', "aria-label", (N_("Remove {x}"), N_("Cancel upload of {x}"))),
    *(
        (
            ".modebar-btn",
            attribute,
            (
                N_("Download plot as a PNG"),
                N_("Zoom"),
                N_("Pan"),
                N_("Zoom in"),
                N_("Zoom out"),
                N_("Autoscale"),
                N_("Reset axes"),
                N_("Fullscreen"),
            ),
        )
        for attribute in ("aria-label", "data-title")
    ),
)


def for_language(lang: str) -> str:
    """The styles a page in ``lang`` adds to :data:`APP`: none in English; elsewhere, Streamlit's
    untranslated instructions hidden (:data:`UNTRANSLATED`)."""
    return "" if lang == "en" else UNTRANSLATED
