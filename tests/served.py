"""A real ``scorepad serve`` process for tests: loopback, any free port, its own database."""

from __future__ import annotations

import http.client
import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


class Server:
    """``scorepad serve`` on loopback, any free port, its own database."""

    def __init__(self, tmp_path: Path, *options: str):
        env = {**os.environ, "FLASK_DATABASE": str(tmp_path / "served.db"), "FLASK_SECRET_KEY": "serve-test"}
        env.pop("FLASK_PROXY_HOPS", None)
        command = [sys.executable, "-m", "scorepad.cli", "serve", "--host", "127.0.0.1", "--port", "0", *options]
        self.process = subprocess.Popen(
            command, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
        )
        self.output = []
        while not self.output or not self.output[-1].startswith("Press Ctrl+C"):
            line = self.process.stdout.readline()
            assert line, f"scorepad serve stopped: {self.process.stderr.read()}"
            self.output.append(line)
        self.port = int(re.search(r"scorepad is at http://127\.0\.0\.1:(\d+)/", "".join(self.output))[1])

    def request(self, method: str, path: str, headers=None, body=None, timeout=10.0):
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        try:
            connection.request(method, path, body=body, headers=headers or {})
            response = connection.getresponse()
            return response, response.read().decode()
        finally:
            connection.close()

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(timeout=20)
        self.process.stdout.close()
        self.process.stderr.close()
