#!/usr/bin/env python3
"""The throughput rows' helpers (scripts/bench-throughput.sh runs them): a raw XMPP
client (STARTTLS, as chatctl connects) whose rate is the baseline, the sandbox's own
rate for the same stream, and the checks that every line arrived once.

  flood CONFIG USER_ID PASSWORD_FILE PEER_ID DIALOG COUNT PREFIX
      sends COUNT messages "PREFIX 1" ... "PREFIX COUNT" as chatctl sends them (the
      same stanza), written as fast as the socket takes them, an ack asked for every
      1,000, and waits until the server has acknowledged the last one. Prints JSON:
      the seconds from the first byte to that ack.
  drain CONFIG USER_ID PASSWORD_FILE COUNT PREFIX READY_FILE [--markers]
      logs in, writes READY_FILE, then reads until COUNT messages with a body starting
      with PREFIX came. Prints JSON: the seconds from the first to the last, and
      whether each of 1..COUNT came exactly once, in order. With --markers it answers
      each with a `received` marker as `chatctl listen` does, a write per read.
  watch PID COUNT PREFIX
      reads `chatctl listen --json` (process PID) on stdin until COUNT messages came:
      the seconds from the first line to the last, each line once and in order, and
      PID's resident memory at each tenth of the stream (half, and the last one taken).

Asserts nothing about time; exits 1 when a check fails.
"""
import base64
import json
import os
import re
import socket
import ssl
import sys
import threading
import time

STREAM = ("<?xml version='1.0'?><stream:stream to='{domain}' xmlns='jabber:client' "
          "xmlns:stream='http://etherx.jabber.org/streams' version='1.0'>")


class Stream:
    """One authenticated, bound XMPP stream with stream management enabled, over
    STARTTLS as chatctl's (the sandbox's certificate checked against its CA)."""

    def __init__(self, config, user_id, password):
        self.app_id = config["appId"]
        self.domain = config.get("chatDomain", "localhost")
        host, _, port = config["endpoints"]["chat"].split("://")[1].rpartition(":")
        self.sock = socket.create_connection((host, int(port)))
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.buffer = b""
        self.write(STREAM.format(domain=self.domain))
        self.read_until(b"</stream:features>")
        self.write("<starttls xmlns='urn:ietf:params:xml:ns:xmpp-tls'/>")
        if b"<proceed" not in self.read_until(b"proceed", b"failure"):
            sys.exit("bench-throughput: the sandbox refused STARTTLS")
        context = ssl.create_default_context(cafile=config.get("caFile"))
        self.sock = context.wrap_socket(self.sock, server_hostname=self.domain)
        self.write(STREAM.format(domain=self.domain))
        self.read_until(b"</stream:features>")
        secret = base64.b64encode(f"\0{user_id}-{self.app_id}\0{password}".encode()).decode()
        self.write(f"<auth xmlns='urn:ietf:params:xml:ns:xmpp-sasl' mechanism='PLAIN'>{secret}</auth>")
        if b"<success" not in self.read_until(b"success", b"failure"):
            sys.exit("bench-throughput: the sandbox refused the login")
        self.write(STREAM.format(domain=self.domain))
        self.read_until(b"</stream:features>")
        self.write("<iq type='set' id='bind-1'><bind xmlns='urn:ietf:params:xml:ns:xmpp-bind'/></iq>")
        self.read_until(b"</iq>")
        self.write("<enable xmlns='urn:xmpp:sm:3'/>")
        self.read_until(b"enabled")
        self.write("<presence/>")  # stanza 1 of the stream-management count
        self.buffer = b""

    def jid(self, user_id):
        return f"{user_id}-{self.app_id}@{self.domain}"

    def write(self, text):
        self.sock.sendall(text.encode() if isinstance(text, str) else text)

    def read_until(self, *markers):
        while not any(marker in self.buffer for marker in markers):
            chunk = self.sock.recv(65536)
            if not chunk:
                sys.exit("bench-throughput: the sandbox closed the stream")
            self.buffer += chunk
        found = self.buffer
        self.buffer = b""
        return found


# Drawn once, as chatctl's ObjectIDGenerator (and MongoDB's) draws them: ids of one
# process then sort in creation order. Drawn per id, every message landed on a random
# page of the receiver's id index (the sandbox's and chatctl's cache), which a real
# stream from one sender does not do.
PROCESS_RANDOM = os.urandom(5).hex()


def object_id(counter):
    """A fresh 24-hex ObjectId, as chatctl makes them: time, 5 random bytes drawn once
    per process, a counter."""
    return f"{int(time.time()):08x}{PROCESS_RANDOM}{counter & 0xFFFFFF:06x}"


def flood(config, user_id, password, peer_id, dialog, count, prefix):
    stream = Stream(config, user_id, password)
    to = stream.jid(peer_id)
    acked = {"h": 0}
    done = threading.Event()
    target = count + 1  # the presence, then the messages

    def read_acks():
        tail = b""
        while not done.is_set():
            chunk = stream.sock.recv(65536)
            if not chunk:
                break
            data = tail + chunk
            for h in re.findall(rb"<a xmlns=.urn:xmpp:sm:3. h=.(\d+).", data):
                acked["h"] = max(acked["h"], int(h))
            tail = data[-256:]
            if acked["h"] >= target:
                done.set()

    threading.Thread(target=read_acks, daemon=True).start()
    now = int(time.time())
    stanzas = []
    for n in range(1, count + 1):
        stanzas.append(
            f'<message type="chat" to="{to}" id="{object_id(n)}"><body>{prefix} {n}</body>'
            f'<markable xmlns="urn:xmpp:chat-markers:0"/><extraParams xmlns="jabber:client">'
            f'<save_to_history>1</save_to_history><dialog_id>{dialog}</dialog_id><date_sent>{now}</date_sent>'
            f'</extraParams></message>')
        if n % 1000 == 0 or n == count:
            stanzas.append("<r xmlns='urn:xmpp:sm:3'/>")
    payload = "".join(stanzas).encode()
    start = time.monotonic()
    stream.write(payload)
    if not done.wait(600):
        sys.exit(f"bench-throughput: the sandbox acknowledged {acked['h'] - 1} of {count} messages")
    elapsed = time.monotonic() - start
    print(json.dumps({"seconds": elapsed, "messages": count}))


def drain(config, user_id, password, count, prefix, ready_file, markers):
    stream = Stream(config, user_id, password)
    open(ready_file, "w").write("ready\n")
    body = b"<body>" + prefix.encode() + b" "
    attribute = re.compile(rb"""\s(id|from)=["']([^"']*)["']""")
    seen, first, last, tail, in_order, previous, marker_id = 0, None, None, b"", True, 0, 0
    counts = bytearray(count + 1)
    while seen < count:
        chunk = stream.sock.recv(262144)
        if not chunk:
            sys.exit(f"bench-throughput: the stream ended after {seen} of {count} messages")
        now = time.monotonic()
        stanzas = (tail + chunk).split(b"</message>")
        tail = stanzas.pop()  # not whole yet
        answers = []
        for stanza in stanzas:
            at = stanza.find(body)
            if at < 0:
                continue
            n = int(stanza[at + len(body):stanza.index(b"</body>", at)])
            if first is None:
                first = now
            if 1 <= n <= count:
                counts[n] = min(counts[n] + 1, 255)
            in_order = in_order and n == previous + 1
            previous = n
            seen += 1
            last = now
            if markers:
                tag = stanza[stanza.rfind(b"<message", 0, at):]
                fields = dict(attribute.findall(tag[:tag.index(b">")]))
                sender = fields.get(b"from", b"").split(b"/")[0].decode()
                dialog = tag[tag.find(b"<dialog_id>") + 11:tag.find(b"</dialog_id>")].decode() if b"<dialog_id>" in tag else ""
                marker_id += 1
                answers.append(f'<message type="chat" to="{sender}" id="{object_id(marker_id)}">'
                               f'<received xmlns="urn:xmpp:chat-markers:0" id="{fields.get(b"id", b"").decode()}"/>'
                               f'<extraParams xmlns="jabber:client"><dialog_id>{dialog}</dialog_id></extraParams></message>')
        if answers:
            stream.write("".join(answers))
    once = all(counts[n] == 1 for n in range(1, count + 1))
    print(json.dumps({"seconds": last - first, "messages": seen, "each_once": once, "in_order": in_order}))


def rss_kb(pid):
    try:
        for line in open(f"/proc/{pid}/status"):
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def watch(pid, count, prefix):
    """Reads listen's JSON Lines without parsing each (json.loads on every line cost
    this reader as much CPU as the process it measures): the text and the id are found
    by their keys, which the cache's compact, key-sorted JSON writes in one form."""
    seen, first, last, ids, in_order, previous = 0, None, None, set(), True, 0
    counts = bytearray(count + 1)
    samples = {}  # per tenth of the stream: the process's resident memory
    text_key = b'"message":"' + prefix.encode() + b" "
    id_key = b'"_id":"'
    for line in sys.stdin.buffer:
        now = time.monotonic()
        at = line.find(text_key)
        if at < 0:
            continue
        n = int(line[at + len(text_key):line.index(b'"', at + len(text_key))])
        if first is None:
            first = now
        last = now
        seen += 1
        id_at = line.find(id_key)
        ids.add(line[id_at + len(id_key):id_at + len(id_key) + 24] if id_at >= 0 else None)
        if 1 <= n <= count:
            counts[n] = min(counts[n] + 1, 255)
        in_order = in_order and n == previous + 1
        previous = n
        if seen * 10 % count < 10:
            samples[seen * 10 // count] = rss_kb(pid)
        if seen == count:
            break
    once = seen == count and len(ids) == count and all(counts[n] == 1 for n in range(1, count + 1))
    alive = [kb for tenth, kb in sorted(samples.items()) if kb > 0]
    print(json.dumps({"seconds": (last - first) if first else 0, "messages": seen, "each_once": once, "in_order": in_order,
                      "rss_half_kb": samples.get(5, 0), "rss_end_kb": alive[-1] if alive else 0,
                      "rss_kb_by_tenth": [samples.get(t, 0) for t in range(11)]}))


def main():
    mode, args = sys.argv[1], sys.argv[2:]
    if mode == "flood":
        config, user_id, password_file, peer_id, dialog, count, prefix = args
        flood(json.load(open(config)), user_id, open(password_file).readline().strip(), peer_id, dialog, int(count), prefix)
    elif mode == "drain":
        config, user_id, password_file, count, prefix, ready_file = args[:6]
        drain(json.load(open(config)), user_id, open(password_file).readline().strip(), int(count), prefix, ready_file,
              "--markers" in args[6:])
    elif mode == "watch":
        pid, count, prefix = args
        watch(int(pid), int(count), prefix)
    else:
        sys.exit(f"bench-throughput: unknown mode {mode}")


if __name__ == "__main__":
    main()
