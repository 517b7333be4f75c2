#!/usr/bin/env python3
"""The chat view's rows of `make bench`, each run on a pseudo-terminal of 80x24 as a
person's terminal would run it (TERM=xterm-256color, C.UTF-8):

  first-screen CHATCTL DIALOG OUT.json RUNS
      from starting `chatctl chat DIALOG` to its first full screen on the terminal
      (the input row's hints, drawn last), RUNS times; hyperfine's JSON shape.
  latency CHATCTL DIALOG OUT.json -- SENDER...
      keystroke-to-screen: a character typed until the terminal shows it, while
      SENDER... (a command reading lines on stdin) gets a line every 10 ms.
  rss CHATCTL DIALOG OUT.txt MESSAGES
      resident memory after PgUp through MESSAGES messages of history (halfway too),
      counted from CHATCTL_CHAT_TRACE's pages of older messages.

The environment (CHATCTL_CONFIG, CHATCTL_STATE_DIR) says which account.
"""
import fcntl
import json
import os
import statistics
import struct
import subprocess
import sys
import tempfile
import termios
import threading
import time

COLUMNS, ROWS = 80, 24
HINTS = b"/attach /download /quit"


class Terminal:
    """chatctl chat on a pty of its own; its output drained into a buffer as it comes."""

    def __init__(self, chatctl, dialog, extra_env=None):
        self.master, slave = os.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", ROWS, COLUMNS, 0, 0))
        env = dict(os.environ, TERM="xterm-256color", LANG="C.UTF-8", **(extra_env or {}))
        env.pop("NO_COLOR", None)
        self.output = bytearray()
        self.lock = threading.Condition()
        self.started = time.monotonic()
        self.process = subprocess.Popen(
            [chatctl, "chat", dialog], stdin=slave, stdout=slave, stderr=slave, env=env,
            start_new_session=True, preexec_fn=lambda: fcntl.ioctl(0, termios.TIOCSCTTY, 0))
        os.close(slave)
        threading.Thread(target=self._drain, daemon=True).start()

    def _drain(self):
        while True:
            try:
                chunk = os.read(self.master, 65536)
            except OSError:
                chunk = b""
            with self.lock:
                if not chunk:
                    self.closed = True
                    self.lock.notify_all()
                    return
                self.output += chunk
                self.lock.notify_all()

    def wait_for(self, needle, start=0, timeout=30):
        """Seconds since `started` when `needle` shows in the output after offset `start`."""
        deadline = time.monotonic() + timeout
        with self.lock:
            while self.output.find(needle, start) < 0:
                left = deadline - time.monotonic()
                if left <= 0 or getattr(self, "closed", False):
                    raise SystemExit(f"bench-chat: {needle!r} never showed; output tail: {bytes(self.output[-400:])!r}")
                self.lock.wait(left)
            return time.monotonic()

    def mark(self):
        with self.lock:
            return len(self.output)

    def type(self, data):
        os.write(self.master, data)

    def quit(self):
        self.type(b"\x1b")
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        os.close(self.master)


def hyperfine_json(path, seconds):
    with open(path, "w") as out:
        json.dump({"results": [{"mean": statistics.mean(seconds), "stddev": statistics.pstdev(seconds),
                                "min": min(seconds), "max": max(seconds), "times": seconds}]}, out)


def first_screen(chatctl, dialog, out, runs):
    times = []
    for _ in range(int(runs) + 3):
        terminal = Terminal(chatctl, dialog)
        shown = terminal.wait_for(HINTS)
        times.append(shown - terminal.started)
        terminal.quit()
    hyperfine_json(out, times[3:])  # the first three warm the caches, as hyperfine's warm-up


def latency(chatctl, dialog, out, sender):
    terminal = Terminal(chatctl, dialog)
    terminal.wait_for(HINTS)
    feeder = subprocess.Popen(sender, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    stop = threading.Event()

    def feed():
        n = 0
        next_at = time.monotonic()
        while not stop.is_set():
            n += 1
            feeder.stdin.write(f"arriving {n}\n".encode())
            feeder.stdin.flush()
            next_at += 0.01
            time.sleep(max(0, next_at - time.monotonic()))
    threading.Thread(target=feed, daemon=True).start()
    time.sleep(2)  # the stream is flowing
    samples = []
    # A character no escape sequence and no arriving message contains: its bytes show only when drawn.
    key = "é".encode()
    for i in range(300):
        if i and i % 30 == 0:
            terminal.type(b"\x15")  # ^U: the input line stays short
            time.sleep(0.05)
        start = terminal.mark()
        sent = time.monotonic()
        terminal.type(key)
        samples.append(terminal.wait_for(key, start) - sent)
        time.sleep(0.03)
    stop.set()
    feeder.stdin.close()
    feeder.wait(timeout=60)
    terminal.type(b"\x15")
    terminal.quit()
    hyperfine_json(out, samples)


def rss(chatctl, dialog, out, messages):
    messages = int(messages)
    trace = tempfile.NamedTemporaryFile(prefix="chat-trace-", delete=False)
    trace.close()
    terminal = Terminal(chatctl, dialog, {"CHATCTL_CHAT_TRACE": trace.name})
    terminal.wait_for(HINTS)

    def loaded():
        with open(trace.name) as lines:
            return sum(int(line.split()[1]) for line in lines if line.startswith("older "))

    def resident():
        with open(f"/proc/{terminal.process.pid}/status") as status:
            return next(int(line.split()[1]) for line in status if line.startswith("VmRSS"))
    half = None
    # A few at a time: a page of older messages comes in between, as when a person holds the key.
    page_up = b"\x1b[5~" * 5
    deadline = time.monotonic() + 600
    while loaded() < messages and time.monotonic() < deadline:
        terminal.type(page_up)
        time.sleep(0.005)
        if half is None and loaded() >= messages // 2:
            half = resident()
    end = resident()
    count = loaded()
    terminal.quit()
    os.unlink(trace.name)
    with open(out, "w") as result:
        result.write(f"{half or 0} {end} {count}\n")


if __name__ == "__main__":
    mode, chatctl, dialog, out, *rest = sys.argv[1:]
    if mode == "first-screen":
        first_screen(chatctl, dialog, out, rest[0])
    elif mode == "latency":
        latency(chatctl, dialog, out, rest[1:] if rest and rest[0] == "--" else rest)
    elif mode == "rss":
        rss(chatctl, dialog, out, rest[0])
    else:
        sys.exit(f"bench-chat: unknown mode {mode}")
