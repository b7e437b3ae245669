"""Session corrections, without a gateway: a session rerun under the same agent id starts where the
agent's correction log stood (cursor ``now``), not at the earlier run's hints; a freeze no human
resumed still stands (``now`` answers it) and stops the rerun at its first step; with a ``run_id``
a late hint of another run is skipped; ``from_start=True`` reads the whole log;
a freeze received raises ``WayfinderFrozen`` on the next step and from ``check()``, with its
reason."""

from __future__ import annotations

import unittest
from typing import Any, Dict, List, Mapping, Optional, Sequence

from wayfinder import Session, WayfinderFrozen


def hint(n: int, run_id: Optional[str]) -> Dict[str, Any]:
    return {"eventId": f"cor-{n}", "agentId": "analyst", "runId": run_id, "action": "hint",
            "reason": "generic_repeat", "hint": {"text": f"hint {n}"}}


def freeze(n: int, run_id: Optional[str]) -> Dict[str, Any]:
    return {"eventId": f"cor-{n}", "agentId": "analyst", "runId": run_id, "action": "freeze",
            "reason": "generic_repeat",
            "freeze": {"escalationId": f"esc-{n}", "reason": "read_file failed 12 times in a row"}}


class CorrectionLog:
    """Stands in for the gateway's corrections route: cursors are positions in one agent's log."""

    def __init__(self) -> None:
        self.log: List[Dict[str, Any]] = []
        self.asked: List[Optional[str]] = []
        self.resumed: List[str] = []

    def publish(self, events: Sequence[Mapping[str, Any]]) -> Dict[str, Any]:
        return {"accepted": len(events), "rejected": []}

    def corrections(self, agent_id: str, after: Optional[str] = None, wait: float = 0,
                    tenant_id: Optional[str] = None) -> Dict[str, Any]:
        self.asked.append(after)
        if after == "now":  # as the gateway: just before a standing freeze (the newest, not resumed)
            standing = bool(self.log) and self.log[-1]["action"] == "freeze" and not self.resumed
            return {"corrections": self.log[-1:] if standing else [], "cursor": f"{len(self.log)}-0"}
        start = 0 if after is None else int(after.split("-")[0])
        return {"corrections": self.log[start:], "cursor": f"{len(self.log)}-0"}

    def resume(self, agent_id: str, reason: Optional[str] = None,
               tenant_id: Optional[str] = None) -> None:
        self.resumed.append(agent_id)


class RestartedSessionGetsNoOldCorrections(unittest.TestCase):
    def setUp(self) -> None:
        self.gateway = CorrectionLog()
        self.gateway.log += [hint(1, "run-1"), freeze(2, "run-1")]  # the earlier run ended frozen

    def test_a_frozen_agent_rerun_learns_it_is_frozen_first(self) -> None:
        session = Session(self.gateway, "analyst", "report",  # type: ignore[arg-type]
                          run_id="run-2")
        with self.assertRaises(WayfinderFrozen) as raised:
            session.action("read_file", {"path": "/data/sales.csv"})
        self.assertIn("A human must resume it: `npx wayfinder agent resume analyst`", str(raised.exception))
        self.assertEqual(session.last_seq, -1)  # nothing built
        self.assertEqual([c["eventId"] for c in session.corrections()], ["cor-2"])  # not run-1's hint
        session.resume()
        session.action("read_file", {"path": "/data/sales.csv"})
        self.assertEqual(session.corrections(), [])

    def test_a_rerun_starts_from_now_and_skips_other_runs(self) -> None:
        self.gateway.resumed.append("analyst")  # the earlier run's freeze was lifted by a human
        session = Session(self.gateway, "analyst", "report",  # type: ignore[arg-type]
                          run_id="run-2")
        session.action("read_file", {"path": "/data/sales.csv"})
        session.flush()  # the position is taken before the first event goes out
        self.assertEqual(self.gateway.asked, ["now"])
        self.gateway.log += [hint(3, "run-1"), hint(4, "run-2")]  # a straggler of run-1, then ours
        got = session.corrections()
        self.assertEqual([c["eventId"] for c in got], ["cor-4"])
        self.assertIsNone(session.frozen)
        session.action("read_file", {"path": "/data/other.csv"})  # not frozen by run-1's resumed freeze
        self.assertEqual(session.corrections(), [])

    def test_a_session_with_no_run_id_still_skips_the_earlier_log(self) -> None:
        self.gateway.resumed.append("analyst")
        session = Session(self.gateway, "analyst", "report")  # type: ignore[arg-type]
        self.assertEqual(session.corrections(), [])
        session.check()  # the old freeze did not come back

    def test_from_start_reads_the_whole_log(self) -> None:
        session = Session(self.gateway, "analyst", "report",  # type: ignore[arg-type]
                          from_start=True)
        got = session.corrections()
        self.assertEqual([c["eventId"] for c in got], ["cor-1", "cor-2"])
        self.assertEqual(self.gateway.asked, [None])
        self.assertRaises(WayfinderFrozen, session.check)


class FreezeRaisesWayfinderFrozen(unittest.TestCase):
    def test_the_next_step_after_a_freeze_raises_with_its_reason(self) -> None:
        gateway = CorrectionLog()
        session = Session(gateway, "analyst", "report", run_id="run-1")  # type: ignore[arg-type]
        session.action("read_file", {"path": "/data/sales.csv"})
        session.flush()
        gateway.log += [hint(1, "run-1"), freeze(2, "run-1")]
        got = session.corrections()
        # The freeze is returned too.
        self.assertEqual([c["action"] for c in got], ["hint", "freeze"])
        with self.assertRaises(WayfinderFrozen) as raised:
            session.action("read_file", {"path": "/data/sales.csv"})
        self.assertEqual(raised.exception.reason, "read_file failed 12 times in a row")
        self.assertEqual(raised.exception.escalation_id, "esc-2")
        self.assertEqual(raised.exception.correction["eventId"], "cor-2")
        self.assertIn("read_file failed 12 times in a row", str(raised.exception))
        self.assertEqual(session.last_seq, 0)  # the refused step was not built
        self.assertRaises(WayfinderFrozen, session.check)

        session.resume("fixed the permissions")
        self.assertEqual(gateway.resumed, ["analyst"])
        session.check()
        call_id = session.action("read_file", {"path": "/data/sales.csv"})
        self.assertTrue(call_id.startswith("call-"))


if __name__ == "__main__":
    unittest.main()
