"""Acceptance (issue 11): a 25-call identical loop through the Python client, against the
embedded ``wayfinder start`` in local mode (no key), gets its hint; the hint is acknowledged; a
batch with one invalid event has the valid ones accepted and the bad one rejected naming its index
and field."""

from __future__ import annotations

import time
import unittest

from tests.gateway_process import GatewayProcess
from wayfinder import Client, Session, WayfinderFrozen

GATEWAY: GatewayProcess


def setUpModule() -> None:
    global GATEWAY
    GATEWAY = GatewayProcess().start()


def tearDownModule() -> None:
    GATEWAY.stop()


class IdenticalLoopGetsHint(unittest.TestCase):
    def test_loop_of_25_identical_calls_receives_a_hint(self) -> None:
        client = Client(GATEWAY.base_url)
        goal = "Read the sales data -> compute the totals -> write the report"
        task = client.post_task({"taskId": "sales-report", "goal": goal})
        self.assertEqual(task["taskId"], "sales-report")

        corrections = []
        frozen = None
        session = Session(client, "py-looper", "sales-report", run_id="run-1", batch_size=10)
        try:
            with session:
                for _ in range(25):
                    call_id = session.action("read_file", {"path": "/data/sales.csv"})
                    session.observation("read_file", error="EACCES: permission denied",
                                        call_id=call_id)
                    if session.last_seq % 10 == 9:
                        session.flush()
                        corrections.extend(session.corrections())
        except WayfinderFrozen as error:  # the ladder ran out: the loop stops on the freeze
            frozen = error
        self.assertLessEqual(session.last_seq, 49)
        self.assertEqual(session.rejected, [])
        if frozen is not None:
            self.assertIn("freeze", [c["action"] for c in corrections])
            self.assertTrue(frozen.reason)

        deadline = time.monotonic() + 60
        while not any(c["action"] == "hint" for c in corrections) and time.monotonic() < deadline:
            corrections.extend(session.corrections(wait=5))
        hints = [c for c in corrections if c["action"] == "hint"]
        got = [c["action"] for c in corrections]
        self.assertTrue(hints, f"no hint arrived; got {got}\n{GATEWAY.log()}")
        hint = hints[0]
        self.assertEqual((hint["agentId"], hint["tenantId"], hint["severity"]),
                         ("py-looper", "local", "mild"))
        self.assertIn("read_file", hint["hint"]["text"])
        self.assertLessEqual(hint["atSeq"], 49)
        client.ack("py-looper", hint["eventId"])

        # Nothing twice: the cursor moves past what was read.
        again = session.corrections()
        self.assertFalse({c["eventId"] for c in again} & {c["eventId"] for c in corrections})

    def test_a_rerun_under_the_same_agent_id_gets_no_old_correction(self) -> None:
        client = Client(GATEWAY.base_url)
        client.post_task({"taskId": "rerun-report",
                          "goal": "Read the sales data -> write the report"})
        first = Session(client, "py-rerun", "rerun-report", run_id="run-1")
        with first:
            for _ in range(25):
                call_id = first.action("read_file", {"path": "/data/sales.csv"})
                first.observation("read_file", error="EACCES: permission denied", call_id=call_id)
        earlier: list = []
        deadline = time.monotonic() + 60
        while first.frozen is None and time.monotonic() < deadline:
            earlier.extend(first.corrections(wait=5))
        self.assertIsNotNone(first.frozen, f"the first run was not frozen\n{GATEWAY.log()}")
        self.assertGreater(len(earlier), 1)  # hints and the rest came before the freeze

        # The agent restarts under the same id, as the README's example does when rerun: it is still
        # frozen, learns that at its first step, and reads none of the earlier run's other corrections.
        rerun = Session(client, "py-rerun", "rerun-report", run_id="run-2")
        with self.assertRaises(WayfinderFrozen) as raised:
            rerun.action("read_file", {"path": "/data/other.csv"})
        self.assertIn("npx wayfinder agent resume py-rerun", str(raised.exception))
        self.assertEqual([c["eventId"] for c in rerun.corrections()], [first.frozen["eventId"]])

        # A human resumes it: the next rerun is sent nothing of the earlier run.
        rerun.resume("fixed the permissions")
        again = Session(client, "py-rerun", "rerun-report", run_id="run-3")
        with again:
            call_id = again.action("read_file", {"path": "/data/other.csv"})
            again.observation("read_file", content="ok", call_id=call_id)
        self.assertEqual(again.corrections(wait=2), [])
        again.check()  # no old freeze
        replay = Session(client, "py-rerun", "rerun-report", from_start=True)
        replayed = {c["eventId"] for c in replay.corrections()}
        self.assertTrue({c["eventId"] for c in earlier} <= replayed)

    def test_batch_with_an_invalid_event_is_accepted_but_for_it(self) -> None:
        client = Client(GATEWAY.base_url)
        session = Session(client, "py-batch", "sales-report")
        session.message("reading the data")
        session.action("x" * 200)  # a tool name over 128 characters breaks the contract
        session.message("done", type_="output")
        result = session.flush()
        self.assertEqual(result["accepted"], 2)
        self.assertEqual(len(result["rejected"]), 1)
        rejected = result["rejected"][0]
        self.assertEqual(rejected["index"], 1)
        self.assertIn("action.tool", rejected["field"])
        self.assertEqual(rejected["event"]["seq"], 1)


if __name__ == "__main__":
    unittest.main()
