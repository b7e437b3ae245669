"""Wayfinder client for Python agents: standard library only (urllib, json, threading).

Mirrors the TypeScript SDK's names where Python allows: ``Client`` speaks the gateway's HTTP
API v1, ``Session`` builds, numbers and batches one agent's step events and reads its corrections;
a freeze raises ``WayfinderFrozen``.
"""

from wayfinder.client import Client, WayfinderError
from wayfinder.session import Session, WayfinderFrozen

__all__ = ["Client", "Session", "WayfinderError", "WayfinderFrozen"]
__version__ = "0.1.0"
