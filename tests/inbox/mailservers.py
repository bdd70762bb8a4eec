"""A real IMAP server for the inbox's tests: Debian's Dovecot (dovecot-imapd, installed by .ci/run),
started with a configuration of its own in a temporary folder (passwd-file login, a Maildir, a free
port on 127.0.0.1, no TLS), mail delivered into it by its own delivery agent (dovecot-lda) as an
MTA hands it over, and stopped by its pid.

Dovecot runs as the current user; as root (CI's container) its login processes run as its own
`dovenull` and the mailbox belongs to the `dovecot` user, since Dovecot refuses to run either as root.
"""

from __future__ import annotations

import os
import pwd
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

DOVECOT = shutil.which("dovecot") or "/usr/sbin/dovecot"
LDA = "/usr/lib/dovecot/dovecot-lda"
USER, PASSWORD = "orders", "imap-test-password"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@dataclass
class Dovecot:
    folder: Path
    port: int
    pid: int

    @property
    def config(self) -> Path:
        return self.folder / "dovecot.conf"

    def deliver(self, raw: bytes, *, sender: str = "player@example.org", recipient: str = "") -> None:
        """Hand `raw` to Dovecot's delivery agent, as the mail server's MTA does."""
        command = [LDA, "-c", str(self.config), "-d", USER, "-f", sender]
        if recipient:
            command += ["-a", recipient]
        subprocess.run(command, input=raw, check=True, timeout=30, capture_output=True)

    def stop(self) -> None:
        os.kill(self.pid, signal.SIGTERM)
        for _ in range(100):
            try:
                os.kill(self.pid, 0)
            except ProcessLookupError:
                return
            time.sleep(0.05)


def dovecot_available() -> bool:
    return Path(DOVECOT).is_file() and Path(LDA).is_file()


def dovecot_start() -> Dovecot:
    # A short path of its own: Dovecot's sockets live in base_dir, and a socket's path is limited to
    # about 100 characters (pytest's tmp_path can be longer).
    folder = Path(tempfile.mkdtemp(prefix="briternia-imap-"))
    folder.chmod(0o755)  # the login processes (another user, as root) reach their sockets
    port = free_port()
    if os.geteuid() == 0:
        mail_user = pwd.getpwnam("dovecot")
        users = ""
    else:
        mail_user = pwd.getpwuid(os.getuid())
        users = f"default_login_user = {mail_user.pw_name}\ndefault_internal_user = {mail_user.pw_name}\n"
    maildir = folder / "Maildir"
    for sub in ("cur", "new", "tmp"):
        (maildir / sub).mkdir(parents=True)
    (folder / "passwd").write_text(f"{USER}:{{PLAIN}}{PASSWORD}\n")
    (folder / "dovecot.conf").write_text(
        f"""base_dir = {folder}/run
state_dir = {folder}/state
log_path = {folder}/dovecot.log
instance_name = briternia-imap-{port}
protocols = imap
listen = 127.0.0.1
ssl = no
disable_plaintext_auth = no
auth_mechanisms = plain
{users}first_valid_uid = {mail_user.pw_uid}
passdb {{
  driver = passwd-file
  args = scheme=PLAIN username_format=%u {folder}/passwd
}}
userdb {{
  driver = static
  args = uid={mail_user.pw_uid} gid={mail_user.pw_gid} home={folder}/home
}}
mail_location = maildir:{maildir}
service imap-login {{
  inet_listener imap {{
    address = 127.0.0.1
    port = {port}
  }}
  inet_listener imaps {{
    port = 0
  }}
}}
"""
    )
    if os.geteuid() == 0:
        for path in (maildir, *maildir.iterdir()):
            os.chown(path, mail_user.pw_uid, mail_user.pw_gid)
    # The master forks into the background: its output goes nowhere (a pipe it inherited would be held
    # open by the daemon, and the wait for the command would never end); its log is dovecot.log.
    subprocess.run(
        [DOVECOT, "-c", str(folder / "dovecot.conf")],
        check=True,
        timeout=30,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline:
        pid_file = folder / "run" / "master.pid"
        if pid_file.is_file() and pid_file.read_text().strip():
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=1) as connection:
                    if connection.recv(100).startswith(b"* OK"):
                        return Dovecot(folder=folder, port=port, pid=int(pid_file.read_text().strip()))
            except OSError:
                pass
        time.sleep(0.1)
    raise RuntimeError(f"Dovecot did not start: {(folder / 'dovecot.log').read_text(errors='replace')[-2000:]}")
