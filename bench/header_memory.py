"""The server's memory while clients send huge request headers (issue 19: one header line was
read whole, so a few connections took hundreds of MB). One command:
``.venv/bin/python bench/header_memory.py`` (about 25 s; ``--connections``, ``--megabytes``,
``--finish``, and after ``--`` options of ``burraco serve``, e.g. ``-- --max-header-bytes 131072``).

It starts ``burraco serve`` on a loopback port with a temporary SQLite database, then opens the
connections at once, each sending ``GET /api/info`` with one header line of that many MB, 64 KiB
at a time, and never ending its headers (with ``--finish``, it ends them), and waits for the
server's answer or for the server to close the connection (the headers' deadline, 10 s). The
figures are the server process's resident memory (VmRSS) before, at its highest meanwhile
(sampled every 20 ms), and two seconds after, with what each connection got: its status line
and how much it could send before the server closed it."""

from __future__ import annotations

import argparse
import os
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import httpx

CHUNK = b"a" * 65536


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def send_big_header(port: int, size: int, finish: bool, results: list[str]) -> None:
    sent = 0
    with socket.create_connection(("127.0.0.1", port), timeout=60) as sock:
        try:
            sock.sendall(b"GET /api/info HTTP/1.1\r\nHost: 127.0.0.1\r\nX-A: ")
            while sent < size:
                sock.sendall(CHUNK)
                sent += len(CHUNK)
            if finish:
                sock.sendall(b"\r\nConnection: close\r\n\r\n")
        except OSError:  # the server closed the connection
            pass
        try:
            answer = sock.recv(200)
        except OSError as error:
            answer = repr(error).encode()
    status = answer.split(b"\r\n", 1)[0].decode(errors="replace") or "(closed, no answer)"
    results.append(f"{status} after {sent / 1e6:.1f} MB sent")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--connections", type=int, default=8)
    parser.add_argument("--megabytes", type=float, default=20.0)
    parser.add_argument("--finish", action="store_true", help="end the headers after the line")
    parser.add_argument("serve_options", nargs="*", help="after --: options of burraco serve")
    args = parser.parse_args()
    port = free_port()
    with tempfile.TemporaryDirectory() as folder:
        command = [
            sys.executable,
            "-c",
            "import sys; from burraco.cli.main import main; sys.exit(main())",
            "serve",
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--data-dir",
            folder,
            "--log-level",
            "warning",
            *args.serve_options,
        ]
        log = (Path(folder) / "server.log").open("wb")
        server = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, env=os.environ)
        try:
            deadline = time.monotonic() + 60
            while True:
                try:
                    if httpx.get(f"http://127.0.0.1:{port}/api/info", trust_env=False).is_success:
                        break
                except httpx.HTTPError:
                    pass
                if server.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError("the server did not start")
                time.sleep(0.1)
            time.sleep(1)
            before = rss_mb(server.pid)
            results: list[str] = []
            size = int(args.megabytes * 1e6)
            threads = [
                threading.Thread(target=send_big_header, args=(port, size, args.finish, results))
                for _ in range(args.connections)
            ]
            started = time.monotonic()
            for thread in threads:
                thread.start()
            peak = before
            while any(thread.is_alive() for thread in threads):
                peak = max(peak, rss_mb(server.pid))
                time.sleep(0.02)
            elapsed = time.monotonic() - started
            time.sleep(2)
            after = rss_mb(server.pid)
            served = httpx.get(f"http://127.0.0.1:{port}/api/info", trust_env=False).status_code
        finally:
            server.terminate()
            server.wait(15)
            log.close()
    print(
        f"{args.connections} connections, a {args.megabytes:g} MB header line each"
        f"{', headers ended' if args.finish else ''}, {elapsed:.1f} s; "
        f"options: {' '.join(args.serve_options) or '(defaults)'}"
    )
    print(f"server RSS: {before:.0f} MB before, {peak:.0f} MB at most, {after:.0f} MB 2 s after")
    for line in sorted(set(results)):
        print(f"  {results.count(line)} x {line}")
    print(f"GET /api/info afterwards: {served}")


if __name__ == "__main__":
    main()
