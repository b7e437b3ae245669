"""With keys seeded (``WAYFINDER_API_KEYS``), the real gateway needs one: the client sends it as a
Bearer token, events without a tenantId get the key's tenant, no key or an unknown key is a
``WayfinderError`` with status 401, and naming another tenant is 403. Under the tenant's ingest
limit a batch over its burst (413) is sent again in halves."""

from __future__ import annotations

import time
import unittest

from tests.gateway_process import GatewayProcess
from wayfinder import Client, Session, WayfinderError

KEY = "wf_acme_pythonclienttestkey0000000000"
EVENT = {"agentId": "a", "taskId": "t", "seq": 0, "kind": "feedback", "feedback": {"text": "x"}}
GATEWAY: GatewayProcess


def setUpModule() -> None:
    global GATEWAY
    # The operator lifts the ingest ceiling so the burst test's policy (a fast refill) is allowed.
    GATEWAY = GatewayProcess({"WAYFINDER_API_KEYS": f"acme:{KEY}",
                              "WAYFINDER_INGEST_MAX_EVENTS_PER_SECOND": "100000"}).start()


def tearDownModule() -> None:
    GATEWAY.stop()


class KeyDecidesTheTenant(unittest.TestCase):
    def test_key_is_sent_and_checked(self) -> None:
        with Session(Client(GATEWAY.base_url, api_key=KEY), "py-keyed", "report") as session:
            session.message("hello")
        self.assertEqual(session.rejected, [])
        page = Client(GATEWAY.base_url, api_key=KEY).corrections("py-keyed")
        self.assertEqual(page["corrections"], [])

        for key in (None, "wf_acme_notakey"):
            with self.assertRaises(WayfinderError) as raised:
                Client(GATEWAY.base_url, api_key=key).publish([EVENT])
            self.assertEqual(raised.exception.status, 401)

        with self.assertRaises(WayfinderError) as raised:
            Client(GATEWAY.base_url, api_key=KEY).corrections("py-keyed", tenant_id="globex")
        self.assertEqual(raised.exception.status, 403)

        with self.assertRaises(WayfinderError) as raised:
            Client(GATEWAY.base_url, api_key=KEY).publish(
                [dict(EVENT, tenantId="globex")])
        self.assertEqual(raised.exception.status, 403)

    def test_batch_over_the_burst_is_sent_in_halves(self) -> None:
        client = Client(GATEWAY.base_url, api_key=KEY)
        client.put_policy({"policy": {}, "ingest": {"burst": 30, "eventsPerSecond": 100000}})
        deadline = time.monotonic() + 30
        while client.get_policy().get("ingest", {}).get("burst") != 30:
            self.assertLess(time.monotonic(), deadline, "the policy was not applied")
            time.sleep(0.2)
        sizes = []

        class CountingClient(Client):
            def publish(self, events):  # type: ignore[no-untyped-def]
                sizes.append(len(events))
                return super().publish(events)

        counting = CountingClient(GATEWAY.base_url, api_key=KEY)
        session = Session(counting, "py-burst", "report", batch_size=1000)
        for i in range(100):
            session.message(f"note {i}")
        self.assertEqual(session.flush(), {"accepted": 100, "rejected": []})
        self.assertEqual(sizes, [100, 50, 25, 25, 50, 25, 25])


if __name__ == "__main__":
    unittest.main()
