"""Issue 30: what each input that used to cost gigabytes costs now (CPU seconds, peak memory).

Each input runs in its own Python process, measured with getrusage (user + system CPU, peak RSS),
beside a baseline process that judges an ordinary answer. Run from the repository:
``python benchmarks/bad_inputs.py``. Measured on the 2-core machine, before (d0c80a8) and after:

==================================================  =================  ==================
input                                               before             after
==================================================  =================  ==================
Practice answer 1e-999999                           0.03 s, 130 MB     0.00 s, 120 MB
Practice answer 1e-99999999                         0.18 s, 319 MB     0.00 s, 120 MB
Practice answer 1e-999999999                        3.77 s, 2,036 MB   0.00 s, 120 MB
Class stored answer 1e-999999999 after the reveal   2.50 s, 2,036 MB   0.00 s, 121 MB
state= link of 1,000,000 grades (2,634 characters)  7.64 s, 477 MB     0.04 s, 130 MB
==================================================  =================  ==================

(The baseline process peaks at 130 MB. In the server the text then went on to the browser: the
issue measured 7 GB and 36.8 s for 1e-999999999 there.)
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

SETUP = """
import resource, sys, json
from ndcg_core import explain
from ndcg_core.classroom.questions import exercise, feedback, encode_response, practice_definition
from ndcg_core.teaching.lesson import check_answer, lesson_step
from ndcg_core.teaching.playground import encode_compact, from_query_params
from ndcg_core.teaching.practice import check, make_exercise
"""

CASES = {
    "baseline: Practice answer 0.5": "check(make_exercise(7, 1, kind='metric', level=1), '0.5').message",
    **{
        f"Practice answer {a}": f"check(make_exercise(7, 1, kind='metric', level=1), '{a}').message"
        for a in ("1e-999999", "1e-99999999", "1e-999999999")
    },
    "Learn prediction 1e-999999999": (
        "check_answer(lesson_step(4, explain([3, 2, 3, 0, 1, 2])).question, '1e-999999999').message"
    ),
    "Class stored answer 1e-999999999 after the reveal": (
        "feedback(exercise(practice_definition(7, 1, 'metric', 1)), encode_response('1e-999999999')).message"
    ),
    "state= link of 1,000,000 grades": (
        "str(from_query_params({'state': encode_compact({'rel': ','.join(['1'] * 1_000_000)})}))"
    ),
}

MEASURE = """
before = resource.getrusage(resource.RUSAGE_SELF)
out = {case}
after = resource.getrusage(resource.RUSAGE_SELF)
cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
print(json.dumps({{"cpu_s": cpu, "peak_mb": after.ru_maxrss / 1024, "output_chars": len(out)}}))
"""


def main() -> None:
    print(f"{'input':52} {'CPU s':>7} {'peak MB':>8} {'output chars':>13}")
    for name, case in CASES.items():
        code = SETUP + MEASURE.format(case=case)
        got = subprocess.run(
            [sys.executable, "-c", code],
            cwd=ROOT,
            env={"PYTHONPATH": str(ROOT)},
            capture_output=True,
            text=True,
        )
        if got.returncode:
            print(f"{name:52} failed: {got.stderr.strip().splitlines()[-1]}")
            continue
        r = json.loads(got.stdout.strip().splitlines()[-1])
        print(f"{name:52} {r['cpu_s']:7.3f} {r['peak_mb']:8.0f} {r['output_chars']:13,}")


if __name__ == "__main__":
    main()
