"""HTTP client for the Wayfinder gateway (HTTP API v1, apps/gateway/API.md)."""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.parse
import urllib.request
from typing import Any, Dict, List, Mapping, Optional, Sequence

JsonObject = Dict[str, Any]

DEFAULT_BASE_URL = "http://127.0.0.1:7070"
_MAX_BACKOFF_SECONDS = 5.0


class WayfinderError(Exception):
    """The gateway answered with an error body ``{error, field?, index?}``, or was unreachable."""

    def __init__(self, status: int, error: str, field: Optional[str] = None,
                 index: Optional[int] = None, route: str = "") -> None:
        detail = f" (field {field})" if field else ""
        super().__init__(f"{route}: {status} {error}{detail}")
        self.status = status
        self.error = error
        self.field = field
        self.index = index
        self.route = route


class Client:
    """One tenant's door to Wayfinder.

    ``api_key`` is a tenant key (``wf_...``); the local operator of an embedded ``wayfinder start``
    on loopback with no keys configured needs none. 429 and 503 answers are retried after their
    ``Retry-After``; connection failures with a growing pause, up to ``max_attempts`` tries.
    """

    def __init__(self, base_url: str = DEFAULT_BASE_URL, api_key: Optional[str] = None,
                 timeout: float = 30.0, max_attempts: int = 8) -> None:
        self.base_url = base_url.rstrip("/")
        self.api_key = api_key
        self.timeout = timeout
        self.max_attempts = max_attempts

    def publish(self, events: Sequence[Mapping[str, Any]]) -> JsonObject:
        """Posts step events; returns ``{"accepted": n, "rejected": [{index, error, field}]}``.

        Valid events of a batch are accepted even when others are not; the answer comes after the
        bus accepted them. A batch refused as too large (413: the body limit or the tenant's burst)
        is sent again in halves.
        """
        batch = list(events)
        try:
            return self._request("POST", "/v1/steps", batch)
        except WayfinderError as error:
            if error.status != 413 or len(batch) < 2:
                raise
        half = (len(batch) + 1) // 2
        first = self.publish(batch[:half])
        second = self.publish(batch[half:])
        shifted = [dict(r, index=r["index"] + half) for r in second.get("rejected", [])]
        return {"accepted": first.get("accepted", 0) + second.get("accepted", 0),
                "rejected": list(first.get("rejected", [])) + shifted}

    def corrections(self, agent_id: str, after: Optional[str] = None, wait: float = 0,
                    tenant_id: Optional[str] = None) -> JsonObject:
        """The agent's corrections after the cursor ``after``, waiting up to ``wait`` seconds
        (0-30) for the first one. Returns ``{"corrections": [...], "cursor": "..."}``; pass the
        cursor as ``after`` next time. ``after="now"`` answers no corrections and the log's current
        position as the cursor (what a ``Session`` starts from).
        """
        query: Dict[str, str] = {}
        if after is not None:
            query["after"] = after
        if wait:
            query["wait"] = str(int(min(max(wait, 0), 30)))
        if tenant_id is not None:
            query["tenantId"] = tenant_id
        path = f"{_agent_path(agent_id)}/corrections"
        if query:
            path += "?" + urllib.parse.urlencode(query)
        return self._request("GET", path, timeout=self.timeout + float(wait))

    def ack(self, agent_id: str, correction_id: str, outcome: str = "applied",
            tenant_id: Optional[str] = None) -> None:
        """Tells Wayfinder the agent applied (or ``"ignored"``) a correction."""
        correction = urllib.parse.quote(correction_id, safe="")
        path = f"{_agent_path(agent_id)}/corrections/{correction}/ack"
        self._request("POST", path + _tenant_query(tenant_id), {"outcome": outcome})

    def resume(self, agent_id: str, reason: Optional[str] = None,
               tenant_id: Optional[str] = None) -> None:
        """A human unfreezes an agent after an escalation."""
        body = {} if reason is None else {"reason": reason}
        self._request("POST", f"{_agent_path(agent_id)}/resume" + _tenant_query(tenant_id), body)

    def get_policy(self) -> JsonObject:
        """The tenant's ``wayfinder.policy.v1`` (the profile's values when none was set)."""
        return self._request("GET", "/v1/policy")

    def put_policy(self, policy: Mapping[str, Any]) -> JsonObject:
        """Sets the tenant's policy (validated: a 400 names the field); applied live."""
        return self._request("PUT", "/v1/policy", dict(policy))

    def post_task(self, task: Mapping[str, Any]) -> JsonObject:
        """Posts a ``wayfinder.task.v1``; returns the cognitive map built from it."""
        return self._request("POST", "/v1/tasks", dict(task))["map"]

    def _request(self, method: str, path: str, body: Any = None,
                 timeout: Optional[float] = None) -> JsonObject:
        route = f"{method} {path}"
        data = None if body is None else json.dumps(body).encode("utf-8")
        headers = {"Accept": "application/json"}
        if data is not None:
            headers["Content-Type"] = "application/json"
        if self.api_key:
            headers["Authorization"] = f"Bearer {self.api_key}"
        attempt = 0
        while True:
            attempt += 1
            request = urllib.request.Request(self.base_url + path, data=data, method=method,
                                             headers=headers)
            try:
                with urllib.request.urlopen(request, timeout=timeout or self.timeout) as response:
                    text = response.read().decode("utf-8")
                    return json.loads(text) if text else {}
            except urllib.error.HTTPError as error:
                if error.code in (429, 503) and attempt < self.max_attempts:
                    time.sleep(_retry_after(error.headers.get("Retry-After"), attempt))
                    continue
                raise _error_of(error, route) from None
            except (urllib.error.URLError, ConnectionError, TimeoutError) as error:
                if attempt >= self.max_attempts:
                    reason = getattr(error, "reason", error)
                    raise WayfinderError(0, f"cannot reach {self.base_url}: {reason}",
                                         route=route) from None
                time.sleep(_backoff(attempt))


def _agent_path(agent_id: str) -> str:
    return f"/v1/agents/{urllib.parse.quote(agent_id, safe='')}"


def _tenant_query(tenant_id: Optional[str]) -> str:
    if tenant_id is None:
        return ""
    return "?" + urllib.parse.urlencode({"tenantId": tenant_id})


def _backoff(attempt: int) -> float:
    return min(_MAX_BACKOFF_SECONDS, 0.25 * 2 ** (attempt - 1))


def _retry_after(value: Optional[str], attempt: int) -> float:
    try:
        seconds = float(value) if value is not None else 0.0
    except ValueError:
        seconds = 0.0
    return seconds if seconds > 0 else _backoff(attempt)


def _error_of(error: urllib.error.HTTPError, route: str) -> WayfinderError:
    text = error.read().decode("utf-8", "replace")
    try:
        body = json.loads(text)
    except ValueError:
        body = {"error": text or error.reason}
    if not isinstance(body, dict):
        body = {"error": str(body)}
    return WayfinderError(error.code, str(body.get("error", "error")), body.get("field"),
                          body.get("index"), route)


__all__: List[str] = ["Client", "WayfinderError", "DEFAULT_BASE_URL"]
