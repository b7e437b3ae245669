"""With keys seeded (``WAYFINDER_API_KEYS``), the real gateway needs one: the client sends it as a
Bearer token, events without a tenantId get the key's tenant, no key or an unknown key is a
``WayfinderError`` with status 401, and naming another tenant is 403."""

from __future__ import annotations

import unittest

from tests.gateway_process import GatewayProcess
from wayfinder import Client, Session, WayfinderError

KEY = "wf_acme_pythonclienttestkey0000000000"
EVENT = {"agentId": "a", "taskId": "t", "seq": 0, "kind": "feedback", "feedback": {"text": "x"}}
GATEWAY: GatewayProcess


def setUpModule() -> None:
    global GATEWAY
    GATEWAY = GatewayProcess({"WAYFINDER_API_KEYS": f"acme:{KEY}"}).start()


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


if __name__ == "__main__":
    unittest.main()
