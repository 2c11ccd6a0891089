"""Learn's, Practice's and Class's own state (ndcg_core.teaching.pages), without Streamlit.

Expected values come from the pages' rules: Learn has steps 1 to 7 and only ``present=1`` means
presenter mode; Practice's seed is a whole number from 0 to 10^9, its exercise from 1 to 10,000,
its level from 1 to 3 and its kind one of the practice kinds; a student's id is 16 to 64 letters,
digits, ``-`` or ``_``.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ndcg_core import SCHEMA
from ndcg_core.teaching.pages import ClassState, LearnState, PracticeState
from ndcg_core.teaching.playground import DEFAULT_STATE, UI_PARAMS, to_query_params
from ndcg_core.teaching.practice import KINDS

PAGES = (LearnState, PracticeState, ClassState)


def test_the_pages_parameters_are_their_own():
    """No page reads another's parameter, nor the playground's or the language's."""
    # Except those Learn and Class share, meaning the same: "present" (Learn's presenter mode and
    # Class's results screen, both the projector's view), "room" and "key" (the Class room a
    # presenter's lesson drives, and its lecturer key).
    shared = {"present", "room", "key"}
    names = [name for page in PAGES for name in page.PARAMS if name not in shared]
    playground = {o.url_key for o in SCHEMA} | {"rel", "labels", "scores", "pool", "pool_labels", "preset"}
    playground |= {"state", "gains"}  # a compact link; older links' gain table
    assert len(names) == len(set(names))
    assert not set(names) & (playground | set(UI_PARAMS))


@pytest.mark.parametrize("page", PAGES)
def test_no_parameters_give_the_default_state_and_the_default_state_writes_only_its_marks(page):
    state, warnings = page.from_params({})
    assert (state, warnings) == (page(), [])


# ------------------------------------------------------------------ Learn


def test_learn_defaults_to_step_one_outside_presenter_mode():
    assert LearnState() == LearnState(step=1, present=False)
    assert LearnState().to_params() == {"step": "1"}  # the step is always written: Back needs it


@pytest.mark.parametrize("step", range(1, 8))
@pytest.mark.parametrize("present", [False, True])
def test_learn_round_trip(step, present):
    state = LearnState(step, present)
    assert LearnState.from_params(state.to_params()) == (state, [])
    assert list(state.to_params()) == (["step", "present"] if present else ["step"])


@pytest.mark.parametrize(
    ("given", "step"),
    [("0", 1), ("-3", 1), ("8", 7), ("12", 7), ("two", 1), ("", 1), ("3.5", 1), (" 4 ", 4), ("7", 7)],
)
def test_a_bad_step_opens_the_nearest_step_and_names_the_value(given, step):
    """Issue 30, item 7: the nearest step, and (for a value that is not one) a warning naming it."""
    state, warnings = LearnState.from_params({"step": given})
    assert state == LearnState(step)
    assert [w.values["problem"].values["text"] for w in warnings] == (
        [] if given.strip() == str(step) else [repr(given)]
    )


@pytest.mark.parametrize(
    ("given", "present", "named"),
    [("1", True, False), ("0", False, False), ("yes", False, True), ("", False, True)],
)
def test_only_present_1_is_presenter_mode(given, present, named):
    state, warnings = LearnState.from_params({"step": "2", "present": given})
    assert state == LearnState(2, present)
    assert [w.values["key"] for w in warnings] == (["present"] if named else [])


def test_a_learn_link_is_one_with_a_step():
    assert LearnState.carried_by({"step": "3"})
    assert not LearnState.carried_by({"present": "1"}) and not LearnState.carried_by({"rel": "1,2"})


# ------------------------------------------------------------------ Practice


def test_practice_defaults_mix_every_kind_at_level_one_from_the_first_exercise():
    assert PracticeState() == PracticeState(seed=None, ex=1, level=1, kind=None)
    assert PracticeState().to_params() == {"ex": "1"}  # no seed yet: the page draws one


def test_practice_writes_seed_and_exercise_always_and_the_rest_when_not_the_default():
    assert PracticeState(seed=7).to_params() == {"seed": "7", "ex": "1"}
    assert PracticeState(seed=7, ex=5, level=1).to_params() == {"seed": "7", "ex": "5"}
    full = PracticeState(seed=7, ex=5, level=3, kind="cell").to_params()
    assert full == {"seed": "7", "ex": "5", "level": "3", "kind": "cell"}
    assert list(full) == ["seed", "ex", "level", "kind"]


@given(
    st.integers(0, 10**9) | st.none(),
    st.integers(1, 10_000),
    st.integers(1, 3),
    st.sampled_from([None, *KINDS]),
)
def test_practice_round_trip(seed, ex, level, kind):
    state = PracticeState(seed, ex, level, kind)
    assert PracticeState.from_params(state.to_params()) == (state, [])


@pytest.mark.parametrize(
    ("key", "text", "low", "high"),
    [
        ("seed", "abc", 0, 10**9),
        ("seed", "-1", 0, 10**9),
        ("seed", str(10**9 + 1), 0, 10**9),
        ("seed", "1.5", 0, 10**9),
        ("ex", "0", 1, 10_000),
        ("ex", "10001", 1, 10_000),
        ("ex", "", 1, 10_000),
        ("level", "0", 1, 3),
        ("level", "9", 1, 3),
    ],
)
def test_a_bad_whole_number_is_named_and_falls_back(key, text, low, high):
    given = {"seed": "7", "ex": "5", "level": "2", key: text}
    state, warnings = PracticeState.from_params(given)
    fallback = {"seed": None, "ex": 1, "level": 1}[key]
    expected = {"seed": 7, "ex": 5, "level": 2, "kind": None, key: fallback}
    assert state == PracticeState(**expected)  # the other parameters still apply
    assert warnings == [
        f"Share link parameter '{key}': '{text}' is not a whole number from {low} to {high}; ignored."
    ]


@pytest.mark.parametrize(
    ("key", "text"), [("seed", "0"), ("seed", str(10**9)), ("ex", "10000"), ("level", "3")]
)
def test_the_ends_of_each_range_are_accepted(key, text):
    state, warnings = PracticeState.from_params({key: text})
    assert warnings == [] and getattr(state, key) == int(text)


@pytest.mark.parametrize("kind", ["nope", "", "**bold**", "Cell"])
def test_an_unknown_kind_is_named_and_the_set_is_mixed(kind):
    state, warnings = PracticeState.from_params({"seed": "7", "kind": kind})
    assert state == PracticeState(seed=7)
    assert warnings == [f"Share link parameter 'kind': '{kind}' is not one of {', '.join(KINDS)}; ignored."]


def test_every_bad_parameter_gets_its_own_warning_in_the_links_order():
    _, warnings = PracticeState.from_params({"kind": "x", "level": "9", "ex": "0", "seed": "abc"})
    assert [w.split("'")[1] for w in warnings] == ["seed", "ex", "level", "kind"]


def test_a_practice_link_is_one_with_a_seed_or_an_exercise():
    assert PracticeState.carried_by({"seed": "7"}) and PracticeState.carried_by({"ex": "2"})
    assert not PracticeState.carried_by({"level": "2", "kind": "cell"})


# ------------------------------------------------------------------ Class

ID = "Abc_def-0123456789"  # 18 characters of the id alphabet


def test_class_defaults_to_no_room():
    assert ClassState() == ClassState(room=None, key=None, me=None)
    assert ClassState().to_params() == {}


@given(
    st.text(min_size=1, max_size=12) | st.none(),
    st.booleans(),
    st.text(min_size=1, max_size=16) | st.none(),
)
def test_class_round_trip(room, present, tag):
    state = ClassState(room, present=present, tag=tag)
    assert ClassState.from_params(state.to_params()) == (state, [])


@given(
    st.text(max_size=40) | st.none(),
    st.text(max_size=20) | st.none(),
    st.text(min_size=1, max_size=20) | st.none(),
)
def test_class_reads_a_key_a_student_id_and_a_one_time_code_but_never_writes_them(key, me, one_time):
    """Issue 30, part 4 and 37, part 3: who a browser is never travels in a link the app makes: a
    student's id stays in the phone's cookie, the lecturer key in the lecturer's (another device gets
    a one-time code, in a link made on request), and none of them is written back."""
    given = {"room": "ABC234", "key": key, "me": me, "lecturer": one_time}
    state, _ = ClassState.from_params({k: v for k, v in given.items() if v is not None})
    assert state.key == key and state.me == (me or None)
    assert state.lecturer == ((one_time or "")[:16] or None)
    assert state.to_params() == {"room": "ABC234"}


def test_the_class_link_carries_the_rooms_join_tag_after_its_code():
    """Issue 37, part 4: the join link is ``room=CODE&tag=TAG`` (the same for every student)."""
    state = ClassState("ABC234", tag="K7PQ2M")
    assert state.to_params() == {"room": "ABC234", "tag": "K7PQ2M"}
    assert ClassState.from_params(state.to_params()) == (state, [])
    full = ClassState("ABC234", "k", me=ID, present=True, tag="K7PQ2M", lecturer="ABCDEFGH")
    assert list(full.to_params()) == ["room", "tag", "present"]
    assert ClassState.from_params({"room": "ABC234", "tag": "x" * 5000})[0].tag == "x" * 16


def test_class_present_is_the_projector_screen():
    state = ClassState("ABC234", present=True)
    assert state.to_params() == {"room": "ABC234", "present": "1"}
    assert ClassState.from_params({"room": "ABC234", "present": "1"}) == (state, [])
    assert not ClassState.from_params({"room": "ABC234", "present": "yes"})[0].present


def test_an_empty_key_is_still_a_key():
    """A forged empty key is the wrong key (the page says so), not a student's link."""
    assert ClassState.from_params({"room": "ABC234", "key": ""}) == (ClassState("ABC234", ""), [])


@pytest.mark.parametrize("me", ["short", "x" * 16, ID, "<script>alert(1)</script>" * 3])
def test_a_links_student_id_is_read_so_the_page_can_refuse_it(me):
    """Whatever its form: the page says it does not take it (and never looks it up)."""
    assert ClassState.from_params({"room": "ABC234", "me": me})[0].me == me[:64]
    assert ClassState.from_params({"room": "ABC234", "me": ""}) == (ClassState("ABC234"), [])


def test_the_class_link_is_the_whole_state():
    assert ClassState.carried_by({}) and ClassState.carried_by({"room": "ABC234"})


# ------------------------------------------------------------------ with the playground


def test_a_page_reads_only_its_own_parameters_of_a_full_link():
    link = to_query_params(DEFAULT_STATE) | {
        "step": "3",
        "seed": "7",
        "ex": "2",
        "room": "ABC234",
        "lang": "zh",
    }
    assert LearnState.from_params(link) == (LearnState(3, room="ABC234"), [])
    assert PracticeState.from_params(link) == (PracticeState(seed=7, ex=2), [])
    assert ClassState.from_params(link) == (ClassState("ABC234"), [])
