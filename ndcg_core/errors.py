"""The library's errors and messages with codes, and their text in the reader's language (one table).

The library raises :class:`NDCGError`, a ``ValueError`` that carries a ``code`` (a key of
:data:`MESSAGES`) and its ``values``. ``str(err)`` is the English message, as scripts and tests
match it (it is API); the app shows :func:`error_text` of an error instead: the code's template,
translated, with its values put back in.

A value may itself be coded: a :class:`Message` (a short coded text: a phrase such as "the default
example", or another error's message) or an :class:`NDCGError`. It is translated the same way, so a
share-link warning that wraps a problem is translated whole. Other values (numbers, ids, a file's
name, a library's own words) are shown as they are.

Warnings and hints that are not raised are :class:`Message` s: ``str`` values that read as their
English and keep their code.

>>> from ndcg_core.i18n import set_language
>>> err = NDCGError("entry_not_number", n=2, text="'two'")
>>> str(err)
"entry 2 ('two') is not a number; write a grade such as 2 or 0.5, or label:grade"
>>> err.code, err.values, isinstance(err, ValueError)
('entry_not_number', {'n': 2, 'text': "'two'"}, True)
>>> set_language("zh")
>>> error_text(err)
"第 2 项（'two'）不是数字；请写一个等级，例如 2 或 0.5，或写成 名称:等级"
>>> error_text(Message("share_link_param", key="rel", problem=err, fallback=Message("default_example")))
"分享链接参数 'rel'：第 2 项（'two'）不是数字；请写一个等级，例如 2 或 0.5，或写成 名称:等级；改用默认例子。"
>>> set_language("en")
>>> error_text(ValueError("some other error"))
'some other error'
"""

from __future__ import annotations

from typing import Any

from .i18n import N_, _

__all__ = ["MESSAGES", "Message", "NDCGError", "error_text"]

#: Every coded message: code -> its English template (also the gettext msgid). The values fill the
#: template's placeholders; ``str.format`` puts them in, in English and in translation alike.
MESSAGES: dict[str, str] = {
    # ---------------------------------------------------------------- formula choices (variants)
    "not_whole_number": N_("{text} is not a whole number of at least 1"),
    "cutoff_too_large": N_("{value} is above the largest cutoff, {max}"),
    "not_a_log_base": N_("{text} is not a number above 1 (or e)"),
    "not_a_choice": N_("{text} is not one of {allowed}"),
    "not_a_gain": N_("{text} is not one of {allowed} or a grade:gain table such as 0:0,1:1,2:3"),
    "bad_log_base": N_("log_base must be a finite number greater than 1, got {value}"),
    "k_not_whole": N_("k must be a whole number of at least 1 (or None), got {value}"),
    "k_below_one": N_("k must be at least 1 (or None for the whole list), got {value}"),
    "not_one_of": N_("{name} must be one of {allowed}; got {value}"),
    "not_a_variant_name": N_("not a variant name: {name} (expected e.g. nDCG(gain='exponential')@10)"),
    "unknown_variant_option": N_("unknown variant option {key} in {name}"),
    "gain_entry_form": N_("gain table entry {n} ({text}) is not of the form grade:gain, e.g. 2:3"),
    "gain_entry_finite": N_("gain table entry {n} ({text}) must use finite numbers"),
    "gain_table_empty": N_("the gain table is empty: give grade:gain pairs such as 0:0,1:1,2:3"),
    "gain_grade_twice": N_(
        "the gain table names grade {g} twice ({first} and {second}): give each grade one gain"
    ),
    "grade_without_gain": N_("grade {g} has no gain in the table; add an entry such as {entry}"),
    # ---------------------------------------------------------------- one list (metrics)
    "got_a_string": N_("{what}: expected a list of numbers, got a string {value}"),
    "not_finite_at": N_("{what}: position {n} is {value}, expected a finite number"),
    "gain_not_finite": N_("gain table: grade {g} has gain {gain}; gains must be finite"),
    "grade_not_in_table": N_("grade {g} (position {n}) is not in the gain table, which has grades {known}"),
    "grade_overflows": N_(
        "grade {g} (position {n}) is too large for exponential gain: 2^grade overflows a float "
        "(grades must stay between -1023 and 1023)"
    ),
    "too_large": N_(
        "the gains are too large: their discounted sum exceeds the largest float (about 1.8e308), "
        "so DCG and NDCG would be inf or NaN; use smaller grades or gains"
    ),
    "idcg_zero": N_(
        "IDCG is {idcg}: no item in the ideal ordering has a positive gain, so NDCG is undefined "
        "(choose zero_idcg='zero', 'one' or 'skip' to score such lists)"
    ),
    "scores_count": N_("scores has {n} entries but there are {grades} grades; give one score per item"),
    "labels_count": N_("{what} has {n} entries but there are {grades} grades; give one label per grade"),
    # ---------------------------------------------------------------- specs, presets, library rules
    "not_a_variant": N_("variant must be a Variant, got {value}"),
    "library_refuses": N_("{library} refuses {what}: {why}"),
    "library_refuses_fix": N_("{library} refuses {what}: {why}; {fix}"),
    "this_preset": N_("this preset"),
    "this_list": N_("this list"),
    "these_qrels": N_("these qrels"),
    "query_named": N_("query {query}"),
    "grade_refused": N_("{rule} (grade {g} {where})"),
    "at_position": N_("at position {n}"),
    "at_position_of_ideal": N_("at position {n} of ideal"),
    "on_row": N_("on {row}"),
    "too_few_items": N_("{rule} (the list has {n})"),
    "too_few_retrieved": N_("{rule} (it retrieved {n})"),
    "ids_repeat": N_("it identifies items by id, and ids repeat: {ids}"),
    "ideal_lacks_grade": N_(
        "ideal must hold the grade of every judged item, retrieved ones included; it lacks the list's "
        "grade {g}"
    ),
    "preset_sets_k": N_("preset {name}: the variant must leave k unset (k is per call)"),
    "preset_unnamed": N_("preset {name}: its spec must name it (preset={name})"),
    "unknown_preset": N_("unknown preset {name}; choose one of {known}"),
    "no_such_preset": N_("unknown preset {name}"),
    "unknown_choice": N_("unknown choice {key}; choose from {allowed}"),
    "preset_fixes": N_("preset {name} fixes {key}={fixed}; drop {key}={value} or drop the preset"),
    "not_a_spec": N_("spec must be a Spec (see ndcg_core.resolve), got {value}"),
    "spec_and_choices": N_("give either spec= or {named}=, not both: a Spec already holds every choice"),
    # ---------------------------------------------------------------- data sets: tables and files
    "not_a_dataframe": N_("{what} must be a pandas DataFrame with columns {columns}"),
    "missing_columns": N_(
        "{what} needs columns {columns}; missing {missing} (accepted names, any case: {hints}); found {found}"
    ),
    "no_columns": N_("no columns"),
    "line_n": N_("line {n}"),
    "row_n": N_("row {n}"),
    "missing_nan": N_("missing (NaN)"),
    "not_finite_row": N_("{table}: {what} on {row} is {value}, expected a finite number"),
    "not_finite_rows": N_("{table}: {what} on {row} is {value}, expected a finite number ({n} such rows)"),
    "query_id": N_("query id"),
    "document_id": N_("document id"),
    "missing_id": N_(
        "{table}: {row} has no {what} ({n} such rows); every row needs a query id and a document id"
    ),
    "cannot_read": N_("cannot read {name}: {reason}"),
    "the_uploaded_file": N_("the uploaded file"),
    "the_given_bytes": N_("the given bytes"),
    "bad_threads": N_("threads must be a whole number of at least 1 (or None for the default), got {value}"),
    "bad_threads_variable": N_("{name} must be a whole number of at least 1, got {text}"),
    "cut_off": N_("the data ends inside a compressed frame"),
    "file_too_large": N_("{name} is larger than {limit}, the limit on a file's content ({setting})"),
    "expands_too_much": N_(
        "{name} expands to more than {limit} when decompressed, the limit on a file's content "
        "({setting}): reading stopped after {read} of its {size}, so in all it would expand to about "
        "{estimate}"
    ),
    "line_too_long": N_(
        "{name}, line {line}: longer than {limit}, the limit on one line ({setting}); a qrels or run "
        "file has one short line per judgement or result"
    ),
    "bad_size": N_("{text} is not a size: write a number of bytes, or one with k, M, G or T (such as 4G)"),
    "bad_read_limit": N_("{name} must be a whole number of bytes of at least 1, got {value}"),
    "not_read_limits": N_("limits must be a ReadLimits value (or None for the defaults), got {type}"),
    "bad_compressed": N_("{name}: not a readable {format} file ({reason}): is it complete?"),
    "needs_zstandard": N_(
        "{name} is compressed with Zstandard: reading it needs the zstandard package (pip install zstandard)"
    ),
    "not_a_file": N_("expected a file path or a file-like object, got {type}"),
    "not_utf8": N_("{name}: not UTF-8 text (byte {byte}): is this a text file?"),
    "empty_file": N_(
        "{name} is empty: expected {kind} lines such as '{trec}' or a CSV/TSV table with a header ({columns})"
    ),
    "qrels_fields": N_(
        "{name}: line {line} has {n} fields; a TREC qrels line has 4 (query iteration doc grade): "
        "ids cannot contain spaces"
    ),
    "not_trec_qrels": N_(
        "{name}: not a TREC qrels file with 4 fields on every line ({reason}); ids cannot contain spaces"
    ),
    "too_few_fields": N_("{name}: line {line} has fewer than {n} fields (TREC {kind} format)"),
    "rank_not_number": N_(
        "{name}: line {line}: the rank {rank} is not a number (TREC run lines are "
        "'query Q0 doc rank score tag'; ids cannot contain spaces)"
    ),
    "bad_delimiter": N_("{name}: could not read a table with delimiter {sep} ({reason})"),
    "single_column": N_(
        "{name}: found a single column {column}: the delimiter was not recognised. "
        "Use commas, tabs, semicolons or spaces between {columns}, or TREC format"
    ),
    "empty_id": N_("{name}: line {line} has an empty {what}; every row needs both ids"),
    "control_in_id": N_(
        "{name}: line {line}: the {what} {text} holds the control character {char}; ids cannot hold "
        "control characters"
    ),
    "no_data_rows": N_("{name} has a header but no data rows"),
    "looks_like_run": N_(
        "{name}, line {line}: this looks like a run (query Q0 doc rank score tag), not relevance judgements "
        "(query 0 doc grade); {fix}"
    ),
    "looks_like_qrels": N_(
        "{name}, line {line}: this looks like relevance judgements (query 0 doc grade), not a run "
        "(query Q0 doc rank score tag); {fix}"
    ),
    "run_fields": N_(
        "{name}, line {line} has {n} fields; a TREC run line has 6, query Q0 doc rank score tag: add the "
        "missing field (a run tag such as 'run1', or Q0) to every line"
    ),
    # ---------------------------------------------------------------- data sets: scoring
    "judged_twice": N_(
        "{name}: document {doc} is judged twice for query {query} ({first} and {second}); remove one, or "
        "{fix}"
    ),
    "judged_twice_many": N_(
        "{name}: document {doc} is judged twice for query {query} ({first} and {second}); remove one, or "
        "{fix} ({n} duplicate pairs in all)"
    ),
    "retrieved_twice": N_(
        "{name}: document {doc} is retrieved twice for query {query} ({first} and {second}); remove one, or "
        "{fix}"
    ),
    "retrieved_twice_many": N_(
        "{name}: document {doc} is retrieved twice for query {query} ({first} and {second}); remove one, or "
        "{fix} ({n} duplicate pairs in all)"
    ),
    # the fix a message offers, as the caller can use it: in Python, or on the command line
    "fix_duplicates_grade": N_("pass duplicates='max' to keep the higher grade"),
    "fix_duplicates_score": N_("pass duplicates='max' to keep the higher score"),
    "cli_fix_duplicates_grade": N_("run again with --duplicates max to keep the higher grade"),
    "cli_fix_duplicates_score": N_("run again with --duplicates max to keep the higher score"),
    "fix_grades_preset": N_("fix the grades, or pass preset=None to score them as written"),
    "cli_fix_grades_preset": N_("fix the grades, or run again with --preset none to score them as written"),
    "fix_roles": N_("read the judgements with read_qrels() and the run with read_run()"),
    "cli_fix_roles": N_("give the qrels file first, then the runs: ndcg-eval QRELS RUN [RUN ...]"),
    "no_query_in_common": N_(
        "no query is in both {qrels} and {run}: {qrels} has queries {qrelsample}, {run} has {runsample}; "
        "are the query ids written the same way in both (such as q1 and 1), and are these the judgements "
        "for this run?"
    ),
    "few_queries_in_common": N_(
        "only {common} of the {nrun} queries of {run} are judged in {qrels} (which judges {nqrels} "
        "queries): the others have nothing to be measured against. {qrels} has queries {qrelsample}, {run} "
        "has {runsample}: are these the judgements for this run?"
    ),
    "unjudged_gain": N_("{problem} (unjudged retrieved documents count as grade 0)"),
    "ties_over_data_set": N_(
        "ties={ties} depends on numpy's sort internals for each list and cannot be reproduced over a "
        "data set; choose one of {allowed}"
    ),
    "ties_over_data_set_preset": N_(
        "ties={ties} depends on numpy's sort internals for each list and cannot be reproduced over a "
        "data set; choose one of {allowed} (or preset='sklearn', tie-averaged)"
    ),
    "in_query": N_("query {query}: {problem}"),
    "idcg_zero_query": N_(
        "IDCG is 0 for {n} query ({shown}): nothing relevant to find, so NDCG is undefined "
        "(choose zero_idcg='zero', 'one' or 'skip')"
    ),
    "idcg_zero_queries": N_(
        "IDCG is 0 for {n} queries ({shown}): nothing relevant to find, so NDCG is undefined "
        "(choose zero_idcg='zero', 'one' or 'skip')"
    ),
    "not_evaluate_table": N_(
        "aggregate needs the table from evaluate() with columns dcg and idcg; got {found}"
    ),
    "no_cutoffs": N_("k is an empty list: give a cutoff, a list of cutoffs such as [5, 10], or None"),
    "which_cutoff": N_(
        "this table has several cutoffs ({cutoffs}): choose one, e.g. aggregate(table, k={first})"
    ),
    "no_such_cutoff": N_("this table has no cutoff k={k}; it has {cutoffs}"),
    "idcg_zero_count": N_("{n} of {total} queries have IDCG = 0 and zero_idcg='error'"),
    "cannot_average": N_("cannot average this data set: {problem}"),
    # ---------------------------------------------------------------- data sets: comparing runs
    "runs_count": N_("compare needs at least 2 runs, got {n}"),
    "unknown_baseline": N_("the baseline {name} is not one of the runs ({names})"),
    "alpha_range": N_("alpha must be a number between 0 and 1, got {value}"),
    "permutations_count": N_("permutations must be a whole number of at least 1, got {value}"),
    "in_run": N_("run {name}: {problem}"),
    "unknown_run": N_("no run is named {name}; the runs are {names}"),
    "unknown_variant": N_("no variant is named {name} in this comparison"),
    "no_common_queries": N_(
        "no query has a score in every run ({runs}): are these runs for the same queries as the qrels?"
    ),
    # ---------------------------------------------------------------- the command line (ndcg-eval)
    "unknown_measure": N_(
        "unknown measure {measure}: use trec_eval's ndcg, ndcg_cut.5,10, ndcg.1=3,2=9, ndcg_rel, unj.5,10, "
        "runid, num_q or ir_measures' nDCG, nDCG@10, Judged@10"
    ),
    "bad_measure_cutoff": N_("measure {measure}: the cutoff {text} is not a number of at least 1"),
    "bad_measure_gain": N_(
        "measure {measure}: {text} is not a relevance level and its gain, such as 2=9 (gains of at least 0)"
    ),
    "no_measures": N_("no measure given: name one with -m, such as -m ndcg_cut.10"),
    "flag_ignored": N_(
        "note: {flag} ({what}) changes none of the measures ndcg-eval computes (ndcg, ndcg_cut, ndcg_rel, "
        "unj, Judged): ignored"
    ),
    "flag_level": N_("the relevance level of trec_eval's binary measures"),
    "flag_debug": N_("trec_eval's debugging output"),
    "flag_collection": N_(
        "the number of documents in the collection, which only other trec_eval measures use"
    ),
    "flag_old_format": N_("trec_eval's old output format, which trec_eval 9 ignores too"),
    "flag_format": N_("{flag} {value}: ndcg-eval reads the {supported} format only"),
    "flag_unsupported": N_("{flag}: {what} are not supported by ndcg-eval"),
    "flag_zscore": N_("z-scores against a file of means and standard deviations"),
    # ---------------------------------------------------------------- typed or pasted lists, share links
    "entry_not_number": N_(
        "entry {n} ({text}) is not a number; write a grade such as 2 or 0.5, or label:grade"
    ),
    "entry_not_finite": N_("entry {n} ({text}) is not a finite number"),
    "entry_empty": N_("entry {n} is empty (two separators in a row): remove one, or give its grade"),
    "entry_two_separators": N_(
        "entry {n} ({text}) has more than one {sep}: write label{sep}grade, with one grade"
    ),
    "bad_line": N_(
        "line {n} ({text}) is not understood; write one item a line: a grade, label<TAB>grade or label:grade"
    ),
    "bad_lines": N_(
        "lines {lines} are not understood (line {n}: {text}); write one item a line: a grade, "
        "label<TAB>grade or label:grade"
    ),
    "unknown_order": N_("unknown order {how}: use ideal, worst, reverse, shuffle or reset"),
    "scores_for_grades": N_("{a} scores for {b} grades"),
    "labels_for_grades": N_("{a} labels for {b} grades"),
    "labels_for_pool_grades": N_("{a} labels for {b} pool grades"),
    "no_gain_for_grade": N_("no gain for grade {g} in the table"),
    "link_not_decodable": N_("it is not a link this app wrote (cannot be decoded)"),
    "link_without_params": N_("it does not hold share-link parameters"),
    "link_too_large": N_("it unpacks to more than {max} bytes, more than any list the app shares"),
    "link_too_many_items": N_("it holds {n} items; a link may hold at most {max}"),
    "state_not_json": N_("the file is not a playground state (not JSON)"),
    "state_not_ours": N_("the file is not a playground state saved by this app"),
    "share_link_param": N_("Share link parameter '{key}': {problem}; using {fallback} instead."),
    "link_param_ignored": N_("Share link parameter '{key}': {problem}; ignored."),
    "not_whole_in_range": N_("{text} is not a whole number from {low} to {high}"),
    "present_not_flag": N_("{text} is not 1 (presenter mode) or 0"),
    # what a share-link warning uses instead
    "default_example": N_("the default example"),
    "order_as_given": N_("the order as given"),
    "no_extra_judged_items": N_("no extra judged items"),
    "linear_gain": N_("linear gain"),
    "formula_above": N_("the formula above"),
    "whole_list": N_("the whole list"),
    "step_n": N_("step {n}"),
    "lesson_not_presenting": N_("the lesson without presenter mode"),
    "room_not_presenting": N_("the room's page, not the projector screen"),
    "the_current_language": N_("the current language"),
    # ---------------------------------------------------------------- teaching: examples, comparisons, pages
    "label_repeats": N_("judged item {n} repeats the label {label}: labels must be unique to compare"),
    "rankings_count": N_("compare 1 to {max} rankings, not {n}"),
    "ranking_unknown_item": N_("ranking {name} names {item}, which is not a judged item"),
    "ranking_repeats_item": N_("ranking {name} lists {item} more than once"),
    "ranking_names_repeat": N_("two rankings are named {name}: give each its own name"),
    "position_unknown_item": N_("position {n} names {item}, which is not a judged item (judged: {judged})"),
    "no_example_group": N_("no worked examples in group {group}"),
    "unknown_example": N_("no worked example {key}; known: {known}"),
    "unknown_figure_quantity": N_("unknown figure quantity {quantity}"),
    "lesson_step_range": N_("the lesson has steps 1 to {max}, not {n}"),
    "lesson_needs_items": N_("the lesson needs a list with at least one item"),
    "chart_kind": N_("chart kind must be one of {allowed}, not {kind}"),
    "image_format": N_("image format must be 'png' or 'svg', not {fmt}"),
    "query_not_found": N_("query {query} is in neither the run nor the qrels"),
    "no_rankings": N_("give at least one ranking, e.g. {example}"),
    "ranking_name_clash": N_("ranking names may not be column names of the table: {names}"),
    "unknown_exercise_kind": N_("unknown exercise kind {kind}; expected one of {kinds}"),
    "exercise_level": N_("level must be 1, 2 or 3; got {level}"),
    "diagnose_quantity": N_("quantity must be one of 'dcg', 'idcg', 'ndcg'; got {quantity}"),
    # ---------------------------------------------------------------- typed answers (teaching.answers)
    "type_a_number": N_("type a number such as {number}, or arithmetic such as {arithmetic}"),
    "only_numbers": N_("only numbers can be used: {example}"),
    "divides_by_zero": N_("the arithmetic divides by zero"),
    "exponent_too_large": N_("exponent {e} is too large: powers up to {max} are allowed"),
    "negative_fractional_power": N_("a negative number cannot be raised to a fractional power"),
    "no_functions": N_(
        "functions such as log2(...) cannot be used: type their value instead "
        "(for example {value} for {example})"
    ),
    "no_dotted_names": N_("names with a dot (like math.pi) cannot be used: {example}"),
    "a_name": N_("'{name}' is a name, not a number: {example}"),
    "only_arithmetic": N_("only numbers, + - * / ^ and parentheses can be used: {example}"),
    "answer_not_text": N_("expected text, got {type}"),
    "answer_empty": N_("the answer is empty: {example}"),
    "answer_too_long": N_("the answer is too long ({n} characters, at most {max})"),
    "not_arithmetic": N_("'{text}' is not a number or arithmetic: {example}"),
    "number_too_large": N_("the arithmetic gives a number too large to use"),
    "too_many_decimals": N_("the answer has too many decimals: at most {max} can be checked"),
    "more_decimals": N_("give at least {n} decimals (you gave {typed} decimals)"),
    "more_decimals_one": N_("give at least {n} decimals (you gave 1 decimal)"),
    "a_fraction": N_("this is a fraction between 0 and 1: {typed} would be {value} (or type {typed}%)"),
    "read_as_fraction": N_("{typed} is read as the fraction {value}"),
    # ---------------------------------------------------------------- Practice's verdicts that judge nothing
    "answer_unreadable": N_("Could not read your answer: {problem}."),
    "bad_order": N_("The order must hold each item once."),
    "no_choice": N_("Pick one of the answers."),
    # ---------------------------------------------------------------- Class mode (classroom)
    "class_formula": N_(
        "the playground's formula uses a gain table or discount that class questions cannot state"
    ),
    "class_exercise": N_("unknown Practice exercise kind {kind} or level {level}"),
    "class_ask": N_("ask must be one of {asks}; got {ask}"),
    "class_items": N_("a class question needs 2 to {n} items, each with a label"),
    "class_labels_differ": N_("the items' labels must differ, so an order can name them"),
    "class_needs_relevant": N_("at least one item must be relevant (grade above 0)"),
    "class_question_source": N_("unknown question source {source}"),
    "class_lesson_step": N_("the lesson has steps 1 to {n}; got {step}"),
    "class_lesson_items": N_("a lesson question can send at most {n} items to the phones"),
    "class_lesson_formula": N_(
        "the room's questions are judged by Practice's formulas (gain = grade or 2^grade − 1, "
        "divisor log(i + 1) or max(1, log i), any k); this list's formula gives other numbers"
    ),
    "class_lesson_no_question": N_("step {step} of the lesson asks the room nothing"),
    "class_lesson_not_sent": N_("This step's question was not sent to the room: {problem}."),
    "class_type_a_number": N_("Type a number."),
    "class_give_every_item": N_("Give every item once, in your order."),
    "class_answer_too_long": N_("That answer is too long."),
    "class_join_first": N_("Join the room with your name first."),
    "class_answer_closed": N_("This question is closed: your answer was not taken."),
    "class_answer_too_fast": N_("Too many answers in a short time: wait {seconds} s, then send again."),
    "class_position": N_(
        "a cell's position must be a whole number from 1 to {n} (the list's length, or k when k is smaller); "
        "got {position}"
    ),
    "class_countdown": N_("the countdown must be none or one of {allowed} seconds; got {seconds}"),
    # the lecturer's own questions: "{field}: {problem}", the field as the form names it
    "class_field": N_("{field}: {problem}"),
    "field_prompt": N_("Question"),
    "field_option": N_("Option {n}"),
    "field_options": N_("Options"),
    "field_right": N_("Right answer"),
    "field_grades": N_("Grades"),
    "field_labels": N_("Labels"),
    "field_position": N_("Position"),
    "text_empty": N_("it is empty; type some text"),
    "text_too_long": N_("it has {n} characters; at most {max} fit"),
    "text_control": N_(
        "it holds a character that cannot be shown (a control character); type it without one"
    ),
    "text_bidi": N_(
        "it holds a character that turns the text's direction around (a bidirectional override); "
        "type it without one"
    ),
    "text_invisible": N_("it shows nothing (only invisible characters); type letters or digits"),
    "options_same": N_("options {a} and {b} are the same; each option must differ"),
    "options_count": N_("fill in {low} to {high} options (filled in now: {n})"),
    "right_missing": N_("mark the option that is the right answer"),
    "right_empty": N_("option {n} is marked as the right answer but is empty; fill it in or mark another"),
    "grades_empty": N_("type the list's grades, top first, such as 3, 2, 3, 0, 1, 2"),
    "grade_not_number": N_("entry {n} ({text}) is not a number; type grades such as 3, 2, 0"),
    "grade_range": N_("entry {n} ({text}) is outside 0 to {max}; grades are numbers from 0 to {max}"),
    "own_labels_count": N_(
        "{labels} labels for {grades} grades; give one label per grade, or none (D1, D2, …)"
    ),
    "room_hours": N_("NDCG_ROOM_HOURS must be a positive number of hours; got {text}"),
    "room_hours_too_long": N_("NDCG_ROOM_HOURS must be at most {max} hours (ten years); got {text}"),
    "trusted_proxies": N_(
        "NDCG_TRUSTED_PROXIES must be a whole number of reverse proxies from 0 to {max}; got {text}"
    ),
    "data_dir_not_folder": N_(
        "NDCG_DATA_DIR (the folder of the class database) names a file, not a folder: point it at a folder"
    ),
    "data_dir_not_writable": N_(
        "the folder of the class database (NDCG_DATA_DIR) cannot be created or written: point NDCG_DATA_DIR "
        "at a writable folder"
    ),
    "database_url_unusable": N_(
        "NDCG_DATABASE_URL is not a database address the app can use: give one such as "
        "postgresql+psycopg://user:password@host/ndcg, or unset it to use SQLite"
    ),
    # ---------------------------------------------------------------- settings (environment variables)
    "bad_setting": N_("{name} is {text}: expected {accepts}"),
    "accepts_days": N_("a number of days above 0"),
    "accepts_megabytes": N_("a number of megabytes above 0"),
    "accepts_kilobytes": N_("a number of kilobytes above 0"),
    "accepts_idle_seconds": N_("a number of seconds, or 0 to keep tables until the memory budget drops them"),
    "accepts_public_url": N_(
        "the address students open, such as http://192.168.1.20:8501 or https://ndcg.example.org"
    ),
    "progress_section": N_("unknown progress section {section}: the sections are {sections}"),
    "progress_too_big": N_("the saved {section} progress is over {limit} bytes, so it was not saved"),
    "question_status": N_("status must be one of {allowed}; got {status}"),
}


def _english(code: str, values: dict[str, Any]) -> str:
    return MESSAGES[code].format(**values)


class Message(str):
    """A coded text that is not raised (a warning, a hint, a phrase inside another message).

    It *is* its English text (``==``, ``in`` and formatting see the English), and it keeps
    ``code`` and ``values`` so :func:`error_text` can translate it. Text built from it with ``+``
    or an f-string is plain English.

    >>> m = Message("labels_for_grades", a=2, b=3)
    >>> m, m == "2 labels for 3 grades", m.code
    ('2 labels for 3 grades', True, 'labels_for_grades')
    """

    code: str
    values: dict[str, Any]

    def __new__(cls, code: str, /, **values: Any) -> Message:
        self = super().__new__(cls, _english(code, values))
        self.code = code
        self.values = values
        return self

    def __reduce__(self):  # pickling and copying rebuild it from its code and values
        return _message, (type(self), self.code, self.values)


def _message(cls: type[Message], code: str, values: dict[str, Any]) -> Message:
    return cls(code, **values)


class NDCGError(ValueError):
    """A ``ValueError`` with a ``code`` (a key of :data:`MESSAGES`) and its ``values``.

    ``str(err)`` is the English message (a :class:`Message`, so text taken with ``str`` keeps the
    code); :func:`error_text` gives it in the reader's language.
    """

    def __init__(self, code: str, /, **values: Any) -> None:
        self.message = Message(code, **values)
        super().__init__(str.__str__(self.message))

    @property
    def code(self) -> str:
        return self.message.code

    @property
    def values(self) -> dict[str, Any]:
        return self.message.values

    def with_values(self, **values: Any) -> NDCGError:
        """The same error with some values replaced: a fix spelled as the caller can use it (the
        command line's ``--duplicates max`` for the library's ``duplicates='max'``)."""
        return type(self)(self.code, **{**self.values, **values})

    @classmethod
    def of(cls, message: Message) -> NDCGError:
        """The error whose message is ``message`` (a coded text found earlier, raised now)."""
        return cls(message.code, **message.values)

    def __str__(self) -> Message:  # type: ignore[override]
        return self.message

    def __reduce__(self):  # pickling and copying rebuild it from its code and values
        return _error, (type(self), self.code, self.values)


def _error(cls: type[NDCGError], code: str, values: dict[str, Any]) -> NDCGError:
    return cls(code, **values)


def _coded(value: Any) -> Message | None:
    if isinstance(value, NDCGError):
        return value.message
    return value if isinstance(value, Message) else None


def error_text(err: Exception | str) -> str:
    """The reader's message for an error or coded text (an uncoded one is shown as its ``str``)."""
    message = _coded(err)
    if message is None:
        return str(err)
    values = {key: (error_text(v) if _coded(v) is not None else v) for key, v in message.values.items()}
    return _(MESSAGES[message.code]).format(**values)
