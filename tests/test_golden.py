"""Golden trace: a stored seeded game replayed and compared event by event (R4–R12).

An unintended change of any rule fails here loudly, at the first turn that differs.
"""

from __future__ import annotations

import json

from tests import golden


def test_golden_trace_replays_event_for_event() -> None:
    stored = json.loads(golden.PATH.read_text())
    now = golden.trace()
    assert now["rules"] == stored["rules"]
    assert now["armies"] == stored["armies"], "placement changed (R3)"
    for turn, (got, want) in enumerate(zip(now["turns"], stored["turns"], strict=False), start=1):
        assert got == want, f"turn {turn} differs from the golden trace"
    assert len(now["turns"]) == len(stored["turns"])
