"""Session, without a gateway: events are numbered from ``first_seq``, carry the envelope, pair
each observation with its action, go out in batches of ``batch_size``, and a ``with`` block
flushes."""

from __future__ import annotations

import threading
import unittest
from typing import Any, Dict, List, Mapping, Sequence

from wayfinder import Session


class RecordingClient:
    """Stands in for ``Client.publish`` only: the gateway itself is tested in the other modules."""

    def __init__(self) -> None:
        self.batches: List[List[Dict[str, Any]]] = []

    def publish(self, events: Sequence[Mapping[str, Any]]) -> Dict[str, Any]:
        self.batches.append([dict(e) for e in events])
        return {"accepted": len(events), "rejected": []}

    def corrections(self, agent_id: str, after: Any = None, wait: float = 0,
                    tenant_id: Any = None) -> Dict[str, Any]:
        return {"corrections": [], "cursor": "0-0"}  # an empty log: the session starts at 0-0


class SessionBuildsEvents(unittest.TestCase):
    def test_numbers_pairs_and_batches(self) -> None:
        client = RecordingClient()
        session = Session(client, "agent-1", "report", run_id="r1",  # type: ignore[arg-type]
                          batch_size=4, first_seq=10)
        with session:
            first = session.action("search", {"q": "totals"})
            second = session.action("search", {"q": "sums"})
            session.observation("search", content="no results")  # answers the newest: second
            session.observation("search", content="3 results", call_id=first)
            session.message("thinking", type_="thought")
            session.milestone("m1", "done", evidence="found it")
        events = [e for batch in client.batches for e in batch]
        self.assertEqual([len(b) for b in client.batches], [4, 2])
        self.assertEqual([e["seq"] for e in events], list(range(10, 16)))
        self.assertEqual(events[2]["observation"]["callId"], second)
        self.assertEqual(events[3]["observation"]["callId"], first)
        self.assertEqual(events[4]["message"],
                         {"role": "assistant", "text": "thinking", "type": "thought"})
        self.assertEqual(events[5]["milestone"],
                         {"id": "m1", "status": "done", "evidence": "found it"})
        for event in events:
            self.assertEqual(event["schema"], "wayfinder.step.v1")
            self.assertEqual((event["agentId"], event["taskId"], event["runId"]),
                             ("agent-1", "report", "r1"))
            self.assertNotIn("tenantId", event)
            self.assertTrue(event["ts"].endswith("Z"))
        self.assertEqual(len({e["eventId"] for e in events}), 6)

    def test_delegation_attributes_ride_on_the_step(self) -> None:
        client = RecordingClient()
        with Session(client, "planner", "report") as session:  # type: ignore[arg-type]
            session.action("delegate", {"to": "writer"},
                           attributes={"delegateTo": "writer", "subtask": "draft section 2"})
            session.message("over to you, writer", attributes={"delegateTo": "writer"})
            session.action("search", {"q": "totals"})
        events = [e for batch in client.batches for e in batch]
        self.assertEqual(events[0]["attributes"], {"delegateTo": "writer", "subtask": "draft section 2"})
        self.assertEqual(events[1]["attributes"], {"delegateTo": "writer"})
        self.assertNotIn("attributes", events[2])

    def test_threads_share_one_numbering(self) -> None:
        client = RecordingClient()
        session = Session(client, "agent-2", "report", batch_size=7)  # type: ignore[arg-type]

        def work() -> None:
            for _ in range(50):
                session.message("tick")

        threads = [threading.Thread(target=work) for _ in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        session.flush()
        seqs = sorted(e["seq"] for batch in client.batches for e in batch)
        self.assertEqual(seqs, list(range(200)))


if __name__ == "__main__":
    unittest.main()
