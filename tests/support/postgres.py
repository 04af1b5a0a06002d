"""A real PostgreSQL server for the tests and benchmarks: started in a temporary directory, on loopback.

``initdb`` refuses to run as root, so as root the server runs as an unprivileged user (``postgres``
where the system has it, else ``nobody``) through ``runuser``. Nothing is installed: the PostgreSQL
server binaries are expected on the machine (``initdb``/``pg_ctl`` on PATH or under
/usr/lib/postgresql/*/bin); without them :class:`PostgresUnavailable` says what to install.
"""

from __future__ import annotations

import contextlib
import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

SUPERUSER = "cyclebot"
INSTALL_HINT = (
    "install the PostgreSQL 15 server (Debian/Ubuntu: apt-get install postgresql-15; it provides initdb and pg_ctl "
    "under /usr/lib/postgresql/15/bin)"
)


class PostgresUnavailable(RuntimeError):
    """No PostgreSQL server can be started here; the message says what to install."""


def _binary(name: str) -> str:
    found = shutil.which(name)
    if found:
        return found
    candidates = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"), reverse=True)
    if candidates:
        return candidates[0]
    raise PostgresUnavailable(f"PostgreSQL's {name} was not found on PATH or under /usr/lib/postgresql: {INSTALL_HINT}")


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _run_as() -> list[str]:
    if os.geteuid() != 0:
        return []
    for user in ("postgres", "nobody"):
        with contextlib.suppress(KeyError):
            pwd.getpwnam(user)
            return ["runuser", "-u", user, "--"]
    raise PostgresUnavailable("running as root with neither a postgres nor a nobody user to run PostgreSQL as")


class PostgresServer:
    """One throwaway cluster: ``url`` reaches its ``postgres`` database; ``create_database`` makes fresh ones."""

    def __init__(self, *, durable: bool = False) -> None:
        # Tests run without fsync; a benchmark wants a server that writes to disk as a real one does.
        self.durable = durable
        self.root = Path(tempfile.mkdtemp(prefix="cyclebot-pg-"))
        self.data = self.root / "data"
        self.port = _free_port()
        self._prefix = _run_as()
        self._databases = 0
        if self._prefix:
            user = self._prefix[2]
            entry = pwd.getpwnam(user)
            os.chown(self.root, entry.pw_uid, entry.pw_gid)
        os.chmod(self.root, 0o700)

    def _run(self, *args: str) -> None:
        try:
            subprocess.run([*self._prefix, *args], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        except subprocess.CalledProcessError as error:
            detail = error.stderr.decode(errors="replace").strip().splitlines()[-3:]
            raise PostgresUnavailable(f"{Path(args[0]).name} failed: {' / '.join(detail)}") from None

    def start(self) -> PostgresServer:
        try:
            self._start()
        except BaseException:
            self.stop()
            raise
        return self

    def _start(self) -> None:
        self._run(_binary("initdb"), "-D", str(self.data), "-A", "trust", "-U", SUPERUSER, "-E", "UTF8", "--no-sync")
        self.resume()

    def resume(self) -> None:
        """Start the server (again, after :meth:`pause`), on the same port with the same data."""
        options = f"-p {self.port} -k {self.root} -c listen_addresses=127.0.0.1 -c max_connections=200"
        if not self.durable:
            options += " -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
        self._run(_binary("pg_ctl"), "-D", str(self.data), "-o", options, "-l", str(self.root / "log"), "-w", "start")

    def pause(self) -> None:
        """Shut the server down, keeping its data (clients' connections are cut): an outage, until :meth:`resume`."""
        self._run(_binary("pg_ctl"), "-D", str(self.data), "-m", "fast", "-w", "stop")

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://{SUPERUSER}@127.0.0.1:{self.port}/{database}"

    def create_database(self) -> str:
        """A new empty database; its URL."""
        self._databases += 1
        name = f"test_{os.getpid()}_{self._databases}"
        subprocess.run(
            [_binary("createdb"), "-h", "127.0.0.1", "-p", str(self.port), "-U", SUPERUSER, name],
            check=True,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        return self.url(name)

    def stop(self) -> None:
        with contextlib.suppress(PostgresUnavailable, FileNotFoundError):
            self._run(_binary("pg_ctl"), "-D", str(self.data), "-m", "immediate", "-w", "stop")
        shutil.rmtree(self.root, ignore_errors=True)


@contextlib.contextmanager
def running_postgres(*, durable: bool = False) -> Iterator[PostgresServer]:
    server = PostgresServer(durable=durable).start()
    try:
        yield server
    finally:
        server.stop()
