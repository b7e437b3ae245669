"""A Session builds one agent's step events, numbers them and publishes them in batches, and reads
the corrections meant for it: from the session's start (not an earlier run's), of its own run, and
a freeze stops it with ``WayfinderFrozen``."""

from __future__ import annotations

import threading
import uuid
from urllib.parse import quote
from datetime import datetime, timezone
from typing import Any, Dict, List, Mapping, Optional, Sequence

from wayfinder.client import Client, JsonObject


class WayfinderFrozen(Exception):
    """Wayfinder froze the agent (an escalation): no more steps until a human resumes it.

    ``correction`` is the freeze as received, ``reason`` its reason and ``escalation_id`` the
    escalation to look up (the dashboard, the query API); ``Session.resume()`` unfreezes.
    """

    def __init__(self, correction: JsonObject) -> None:
        freeze = correction.get("freeze") or {}
        self.correction = correction
        self.reason: str = str(freeze.get("reason") or correction.get("reason") or "frozen")
        self.escalation_id: Optional[str] = freeze.get("escalationId")
        escalation = f" (escalation {self.escalation_id})" if self.escalation_id else ""
        agent = str(correction.get("agentId"))
        # The wording of the gateway's and the TS SDK's refusals (resumeInstructions).
        super().__init__(f"agent {agent} frozen by Wayfinder: {self.reason}{escalation}. "
                         f"A human must resume it: `npx wayfinder agent resume {agent}`, the "
                         f"dashboard's agent page, or POST /v1/agents/{quote(agent, safe='')}/resume "
                         f"(Session.resume())")


class Session:
    """One agent working on one task.

    Each helper builds a ``wayfinder.step.v1`` event with the next ``seq`` and fresh ids, and
    buffers it; ``batch_size`` buffered events are published at once, ``flush()`` publishes what
    is buffered, and a ``with`` block flushes on exit. Safe to use from several threads.

    ``corrections()`` starts where the agent's correction log stood when the session began (asked
    of the gateway before its first event goes out), so an agent rerun with the same id is not sent
    the earlier run's hints; ``from_start=True`` reads the whole log (24 h) instead. A freeze no
    human resumed yet still stands: the gateway's ``now`` answers it, so a frozen agent rerun learns
    it first (its first step raises). With a ``run_id``, corrections of the agent's other runs are
    skipped, freezes excepted (a freeze stops the agent, whatever run it came from). Once a freeze
    has been received, the next step helper (and ``check()``) raises ``WayfinderFrozen``.
    """

    def __init__(self, client: Client, agent_id: str, task_id: str, run_id: Optional[str] = None,
                 tenant_id: Optional[str] = None, batch_size: int = 100,
                 first_seq: int = 0, from_start: bool = False) -> None:
        self.client = client
        self.agent_id = agent_id
        self.task_id = task_id
        self.run_id = run_id
        self.tenant_id = tenant_id
        self.batch_size = batch_size
        self.cursor: Optional[str] = None
        self.frozen: Optional[JsonObject] = None
        self.rejected: List[JsonObject] = []
        self._placed = from_start
        self._next_seq = first_seq
        self._buffer: List[JsonObject] = []
        self._standing: List[JsonObject] = []
        self._pending_calls: Dict[str, List[str]] = {}
        self._lock = threading.Lock()
        self._send_lock = threading.Lock()

    @property
    def last_seq(self) -> int:
        """The seq of the latest event built, or ``first_seq - 1`` before the first."""
        return self._next_seq - 1

    def action(self, tool: str, args: Optional[Mapping[str, Any]] = None,
               call_id: Optional[str] = None,
               attributes: Optional[Mapping[str, Any]] = None) -> str:
        """A tool call as issued; returns its call id (the one given, or a new one).

        ``attributes`` are the step's small free-form attributes; ``{"delegateTo": agent_id,
        "subtask": text}`` marks a hand-over of work to another agent of the tenant (cross_agent_cycle).
        """
        call_id = call_id or f"call-{uuid.uuid4()}"
        with self._lock:
            self._pending_calls.setdefault(tool, []).append(call_id)
        self._add("action", {"tool": tool, "args": dict(args or {}), "callId": call_id}, attributes)
        return call_id

    def observation(self, tool: str, content: Any = None, ok: bool = True,
                    error: Optional[str] = None, call_id: Optional[str] = None) -> int:
        """A tool's result; without ``call_id`` it answers the newest pending call of ``tool``."""
        with self._lock:
            pending = self._pending_calls.get(tool, [])
            if call_id is None and pending:
                call_id = pending.pop()
            elif call_id in pending:
                pending.remove(call_id)
        body: JsonObject = {"tool": tool, "ok": ok and error is None}
        if call_id is not None:
            body["callId"] = call_id
        if content is not None:
            body["content"] = content
        if error is not None:
            body["error"] = error
        return self._add("observation", body)

    def message(self, text: str, role: str = "assistant", type_: Optional[str] = None,
                attributes: Optional[Mapping[str, Any]] = None) -> int:
        """A message: ``role`` is assistant, user, system or tool; ``type_`` thought or output."""
        body: JsonObject = {"role": role, "text": text}
        if type_ is not None:
            body["type"] = type_
        return self._add("message", body, attributes)

    def milestone(self, milestone_id: str, status: str, evidence: Optional[str] = None) -> int:
        """An explicit milestone signal: ``status`` is started, done or failed."""
        body: JsonObject = {"id": milestone_id, "status": status}
        if evidence is not None:
            body["evidence"] = evidence
        return self._add("milestone", body)

    def feedback(self, text: str) -> int:
        return self._add("feedback", {"text": text})

    def compaction(self, reason: str) -> int:
        return self._add("compaction", {"reason": reason})

    def plan(self, subgoals: Sequence[Mapping[str, Any]]) -> int:
        return self._add("plan", {"subgoals": [dict(s) for s in subgoals]})

    def flush(self) -> JsonObject:
        """Publishes everything buffered; returns the summed ``{"accepted", "rejected"}``.

        A batch the gateway could not take (network, auth) raises and stays buffered. Events built
        before a freeze still go out (no new ones can be built after it).
        """
        total: JsonObject = {"accepted": 0, "rejected": []}
        with self._send_lock:
            self._place()
            while True:
                with self._lock:
                    batch = self._buffer[:self.batch_size]
                if not batch:
                    return total
                result = self.client.publish(batch)
                with self._lock:
                    del self._buffer[:len(batch)]
                rejected = [dict(r, event=batch[r["index"]]) for r in result.get("rejected", [])]
                self.rejected.extend(rejected)
                total["accepted"] += result.get("accepted", 0)
                total["rejected"].extend(rejected)

    def corrections(self, wait: float = 0) -> List[JsonObject]:
        """This run's corrections since the last call (long-polls up to ``wait`` seconds).

        A freeze among them is returned too, and remembered: the next step raises
        ``WayfinderFrozen``.
        """
        with self._send_lock:
            self._place()
            standing, self._standing = self._standing, []
        page = self.client.corrections(self.agent_id, after=self.cursor, wait=wait,
                                       tenant_id=self.tenant_id)
        self.cursor = page.get("cursor", self.cursor)
        return standing + self._take(page.get("corrections", []))

    def _take(self, corrections: Sequence[JsonObject]) -> List[JsonObject]:
        """This session's corrections among ``corrections`` (its run's, and any freeze); remembers a freeze."""
        mine = [c for c in corrections
                if self.run_id is None or c.get("runId") == self.run_id or c.get("action") == "freeze"]
        for correction in mine:
            if correction.get("action") == "freeze" and self.frozen is None:
                self.frozen = correction
        return mine

    def check(self) -> None:
        """Raises ``WayfinderFrozen`` when a freeze for this session has been received (or stands)."""
        if not self._placed:
            with self._send_lock:
                self._place()
        if self.frozen is not None:
            raise WayfinderFrozen(self.frozen)

    def resume(self, reason: Optional[str] = None) -> None:
        """A human unfreezes the agent (``Client.resume``) and this session takes steps again."""
        self.client.resume(self.agent_id, reason=reason, tenant_id=self.tenant_id)
        self.frozen = None

    def _place(self) -> None:
        """Once, before the session's first event or read: the log's position (cursor ``now``), and
        the agent's standing freeze, which that answer carries (returned by the next ``corrections()``)."""
        if self._placed:
            return
        page = self.client.corrections(self.agent_id, after="now", tenant_id=self.tenant_id)
        self.cursor = page.get("cursor", self.cursor)
        self._standing = self._take(page.get("corrections", []))
        self._placed = True

    def __enter__(self) -> "Session":
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.flush()

    def _add(self, kind: str, body: JsonObject,
             attributes: Optional[Mapping[str, Any]] = None) -> int:
        self.check()
        with self._lock:
            seq = self._next_seq
            self._next_seq += 1
            event: JsonObject = {
                "schema": "wayfinder.step.v1",
                "eventId": str(uuid.uuid4()),
                "ts": _now(),
                "agentId": self.agent_id,
                "taskId": self.task_id,
                "seq": seq,
                "kind": kind,
                kind: body,
            }
            if self.tenant_id is not None:
                event["tenantId"] = self.tenant_id
            if self.run_id is not None:
                event["runId"] = self.run_id
            if attributes:
                event["attributes"] = dict(attributes)
            self._buffer.append(event)
            full = len(self._buffer) >= self.batch_size
        if full:
            self.flush()
        return seq


def _now() -> str:
    """UTC now as ISO-8601 with milliseconds and a ``Z``, as the contracts' timestamps."""
    stamp = datetime.now(timezone.utc).isoformat(timespec="milliseconds")
    return stamp.replace("+00:00", "Z")
