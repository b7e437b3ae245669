"""Starts the real gateway (``node bin/wayfinder.js start``, embedded) on a free port.

The gateway runs in a temporary working directory (its ``.wayfinder/`` key file stays there) with
no ``WAYFINDER_*`` variables but those given, and is stopped by its process id when the tests end.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Dict, Optional

ROOT = Path(__file__).resolve().parents[3]
WAYFINDER = ROOT / "bin" / "wayfinder.js"
STARTUP_SECONDS = 120


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class GatewayProcess:
    def __init__(self, env: Optional[Dict[str, str]] = None) -> None:
        self.port = free_port()
        self.base_url = f"http://127.0.0.1:{self.port}"
        self.workdir = tempfile.mkdtemp(prefix="wayfinder-py-")
        self.log_path = os.path.join(self.workdir, "gateway.log")
        clean = {k: v for k, v in os.environ.items() if not k.startswith("WAYFINDER_")}
        self.env = {**clean, **(env or {})}
        self.process: Optional[subprocess.Popen[bytes]] = None

    def start(self) -> "GatewayProcess":
        node = shutil.which("node")
        if node is None:
            raise RuntimeError("the gateway tests need node on PATH to run bin/wayfinder.js")
        log = open(self.log_path, "wb")
        self.process = subprocess.Popen(
            [node, str(WAYFINDER), "start", "--port", str(self.port)],
            cwd=self.workdir, env=self.env, stdout=log, stderr=subprocess.STDOUT)
        log.close()
        deadline = time.monotonic() + STARTUP_SECONDS
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(
                    f"wayfinder start exited with {self.process.returncode}:\n{self.log()}")
            if self._answers():
                return self
            time.sleep(0.25)
        self.stop()
        raise RuntimeError(f"the gateway did not answer on {self.base_url} within "
                           f"{STARTUP_SECONDS}s:\n{self.log()}")

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        shutil.rmtree(self.workdir, ignore_errors=True)

    def log(self) -> str:
        try:
            with open(self.log_path, encoding="utf-8", errors="replace") as handle:
                return handle.read()
        except OSError:
            return ""

    def _answers(self) -> bool:
        try:
            with urllib.request.urlopen(self.base_url + "/v1/agents/probe/corrections", timeout=2):
                return True
        except urllib.error.HTTPError:
            return True  # it answers (401 in key mode)
        except (urllib.error.URLError, ConnectionError, OSError):
            return False
