#!/usr/bin/env python3
"""abuse.py: the relay-limits issue's abuse benchmark.

One legitimate game (a host and a guest on 127.0.0.1, speaking the
lobby's bytes: docs/protocol-lobby.md) measures a move's round trip
(host -> lobby -> guest -> lobby -> host, 160-byte payloads) through a
fresh `tabula lobby` (default limits, --http on) while 1, 4 and 100
attacking addresses (127.0.2.1 ... 127.0.2.100, each its own source
address for the lobby) run each attack in turn:

  conns   each address opens 100 TCP connections and holds them silent
  http    each address opens 100 HTTP connections with half a request
  slow    each address opens 16 rooms and sends 1 KB frames without ever
          reading (its ACKs pile up in the lobby)
  flood   each address opens a room and sends 96 KB frames (the payload
          limit is 98,304 bytes) as fast as the
          lobby takes them
  guess   each address sends JOINs with random codes, 20 at a time

Each phase: the game alone for 3 s (quiet), then the attack for 1.5 s
before and 5 s while the game is measured, then, the attack still on,
3 s of the anchor: the same game through a second `tabula lobby`
that is not attacked, which measures what the attack's load on the
machine (the attacker runs on it too, in its own process) does to any
lobby. The lobby's
resident memory and descriptors are sampled every 0.25 s (the highest
kept). Prints one line per phase and checks that the game never failed,
that its p99 stays within 2x of the larger of its quiet p99 and the
anchor's p99 under the attack, and that memory and descriptors stay
under the formula of docs/benchmarks.md ("Abuse"). Usage:

  tests/bench/abuse.py build/tabula [ATTACK...] [--addresses 1,4,100]

Exit status 0 when every check holds, 1 otherwise.
"""
import os
import random
import resource
import selectors
import ctypes
import ctypes.util
import socket
import statistics
import struct
import subprocess
import sys
import multiprocessing
import threading
import time

CREATE, JOIN, DATA = 0x01, 0x02, 0x04
VERSION = 4  # the lobby protocol's (docs/protocol-lobby.md)
WELCOME, FRAME = 0x81, 0x82
PAYLOAD = 160

# The lobby's limits (lobby/room.h, client/cmd_lobby.c) the formula uses.
SOURCE_CONNS = 64
HOLD_SLACK = 4
SOURCE_BYTES = 16 << 20
KEPT_BYTES = 256 << 20
MAX_WRITE_QUEUE = 1 << 20
CONN_BYTES = 4096  # what a held connection may cost the lobby, with slack
FD_SPARE = 64


def frame(msg):
    return struct.pack(">I", len(msg)) + msg


# A seat proves its player key in its hello (lobby protocol 4): the
# Ed25519 signature of "tabula seat 1" NUL and the hello's bytes before
# it, made with libsodium itself (Debian's libsodium23, which the lobby
# links too). One key pair serves every attacking seat.
_sodium = ctypes.CDLL(ctypes.util.find_library("sodium") or "libsodium.so.23")
_sodium.sodium_init()
_PK = ctypes.create_string_buffer(32)
_SK = ctypes.create_string_buffer(64)
_sodium.crypto_sign_keypair(_PK, _SK)


def prove(msg, sk=_SK):
    """msg and its proof by sk, then the number asked after (0)."""
    sig = ctypes.create_string_buffer(64)
    data = b"tabula seat 1\0" + msg
    _sodium.crypto_sign_detached(sig, None, data,
                                 ctypes.c_ulonglong(len(data)), sk)
    return msg + sig.raw + struct.pack(">Q", 0)


def create_msg(inv, wat, secret):
    return prove(bytes([CREATE, VERSION]) + inv + wat + _PK.raw + secret +
                 bytes(32))


def join_msg(inv, secret):
    # (a key of its own: the lobby refuses the host's key a guest seat)
    pk = ctypes.create_string_buffer(32)
    sk = ctypes.create_string_buffer(64)
    _sodium.crypto_sign_keypair(pk, sk)
    return prove(bytes([JOIN, VERSION]) + inv + secret + pk.raw, sk)


class Reader:
    """Whole lobby messages from a blocking socket."""

    def __init__(self, s):
        self.s, self.buf = s, b""

    def next(self, timeout):
        self.s.settimeout(timeout)
        while True:
            if len(self.buf) >= 4:
                n = struct.unpack(">I", self.buf[:4])[0]
                if len(self.buf) >= 4 + n:
                    m, self.buf = self.buf[4:4 + n], self.buf[4 + n:]
                    if n == 0:
                        continue  # a heartbeat
                    return m
            d = self.s.recv(65536)
            if not d:
                raise ConnectionError("the lobby closed the game's connection")
            self.buf += d

    def next_frame(self, timeout):
        while True:
            m = self.next(timeout)
            if m[0] == FRAME:
                return m
            if m[0] == 0x85:
                raise ConnectionError("the lobby refused the game: error %d" % m[1])


def connect(addr, source=None):
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    if source:
        s.bind((source, 0))
    s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    s.connect(addr)
    return s


class Game:
    """The legitimate game: host and guest, a move each way per round."""

    def __init__(self, addr):
        inv, wat = os.urandom(16), os.urandom(16)
        self.h, self.g = connect(addr), connect(addr)
        self.hr, self.gr = Reader(self.h), Reader(self.g)
        self.h.sendall(frame(create_msg(inv, wat, os.urandom(16))))
        if self.hr.next(5)[0] != WELCOME:
            raise ConnectionError("host not welcomed")
        self.g.sendall(frame(join_msg(inv, os.urandom(16))))
        if self.gr.next(5)[0] != WELCOME:
            raise ConnectionError("guest not welcomed")
        self.payload = bytes([DATA]) + os.urandom(PAYLOAD)

    def rounds(self, seconds):
        """Round trips (seconds each) for about `seconds`; raises on any
        failure (a lost move, a refusal, 5 s without an answer)."""
        out, end = [], time.monotonic() + seconds
        while time.monotonic() < end:
            t0 = time.perf_counter()
            self.h.sendall(frame(self.payload))
            self.gr.next_frame(5)
            self.g.sendall(frame(self.payload))
            self.hr.next_frame(5)
            out.append(time.perf_counter() - t0)
            time.sleep(0.01)  # a fast game, not a flood (100 moves a second)
        return out


class Anchor:
    """The anchor: the same game through a second `tabula lobby` that is
    not attacked, on the same machine: what the attack's load on the
    machine (the attacker runs on it too) does to any lobby."""

    def __init__(self, tabula):
        self.lobby, tcp, _ = start_lobby(tabula)
        self.game = Game(tcp)

    def rounds(self, seconds):
        return self.game.rounds(seconds)

    def close(self):
        self.lobby.terminate()
        self.lobby.wait(10)


# ---- the attacks: a process of their own, over nonblocking sockets ---------
# (its own process: the game's client must not share Python's lock with
# the attacker)

class Attack(multiprocessing.Process):
    def __init__(self, kind, sources, tcp, http):
        super().__init__(daemon=True)
        self.kind, self.sources, self.tcp, self.http = kind, sources, tcp, http
        self.stop = multiprocessing.Event()
        self.count = multiprocessing.Value("l", 0)
        self.socks = {}  # socket -> (source, state)
        self.opened = self.refused = 0

    @property
    def opened_total(self):
        return self.count.value

    def open(self, source, addr, first=b""):
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        s.setblocking(False)
        try:
            s.bind((source, 0))
            s.connect_ex(addr)
        except OSError:
            s.close()
            return None
        self.socks[s] = [source, first]
        self.sel.register(s, selectors.EVENT_READ | selectors.EVENT_WRITE)
        self.opened += 1
        self.count.value = self.opened
        return s

    def drop(self, s):
        try:
            self.sel.unregister(s)
        except (KeyError, ValueError):
            pass
        self.socks.pop(s, None)
        s.close()

    def want(self):
        """How many sockets each source should hold, and to where."""
        return {"conns": (100, self.tcp), "http": (100, self.http),
                "slow": (16, self.tcp), "flood": (1, self.tcp),
                "guess": (20, self.tcp)}[self.kind]

    def first_bytes(self):
        if self.kind == "http":
            return b"GET / HTTP/1.1\r\nHost: x\r\n"
        if self.kind in ("slow", "flood"):
            return frame(create_msg(os.urandom(16), os.urandom(16),
                                    os.urandom(16)))
        if self.kind == "guess":
            return frame(join_msg(os.urandom(16), os.urandom(16)))
        return b""

    def refill(self):
        n, addr = self.want()
        held = {}
        for src, _ in self.socks.values():
            held[src] = held.get(src, 0) + 1
        for src in self.sources:
            for _ in range(n - held.get(src, 0)):
                if self.open(src, addr, self.first_bytes()) is None:
                    break

    def run(self):
        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
        self.sel = selectors.DefaultSelector()
        slow_data = frame(bytes([DATA]) + os.urandom(1024))
        # (under the lobby's payload limit, 98,304 bytes: 97 KiB was over
        # it, and each frame was refused TOO_BIG before 2026-12-06)
        flood_data = frame(bytes([DATA]) + os.urandom(96 * 1024))
        last = 0
        while not self.stop.is_set():
            now = time.monotonic()
            if now - last > 0.25:
                self.refill()
                last = now
            for key, ev in self.sel.select(0.05):
                s = key.fileobj
                st = self.socks.get(s)
                if st is None:
                    continue
                try:
                    if ev & selectors.EVENT_READ and self.kind != "slow":
                        d = s.recv(1 << 16)
                        if not d:
                            self.refused += 1
                            self.drop(s)
                            continue
                        if self.kind == "guess":  # answered: a new guess
                            self.drop(s)
                            continue
                    if ev & selectors.EVENT_WRITE:
                        if st[1]:
                            k = s.send(st[1])
                            st[1] = st[1][k:]
                        elif self.kind == "slow":
                            s.send(slow_data)
                        elif self.kind == "flood":
                            s.send(flood_data)
                        else:
                            self.sel.modify(s, selectors.EVENT_READ)
                except BlockingIOError:
                    pass
                except OSError:
                    self.refused += 1
                    self.drop(s)
        for s in list(self.socks):
            self.drop(s)


# ---- the lobby under test -------------------------------------------------

def start_lobby(tabula):
    p = subprocess.Popen([tabula, "lobby", "--listen", "127.0.0.1:0",
                          "--http", "127.0.0.1:0"],
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                         text=True)
    tcp = http = None
    while tcp is None or http is None:
        line = p.stdout.readline()
        if not line:
            raise RuntimeError("tabula lobby did not start")
        if line.startswith("listening: "):
            h, port = line.split()[1].rsplit(":", 1)
            tcp = (h, int(port))
        elif line.startswith("http: "):
            port = line.strip().rstrip("/").rsplit(":", 1)[1]
            http = ("127.0.0.1", int(port))
    return p, tcp, http


def rss_kib(pid):
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def fds(pid):
    return len(os.listdir("/proc/%d/fd" % pid))


def pct(xs, q):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def phase(tabula, kind, n, anchor_game):
    lobby, tcp, http = start_lobby(tabula)
    try:
        game = Game(tcp)
        quiet = game.rounds(3.0)
        base_rss, base_fds = rss_kib(lobby.pid), fds(lobby.pid)
        sources = ["127.0.2.%d" % (i + 1) for i in range(n)]
        att = Attack(kind, sources, tcp, http)
        att.start()
        peak_rss, peak_fds = base_rss, base_fds
        sampler_stop = threading.Event()

        def sample():
            nonlocal peak_rss, peak_fds
            while not sampler_stop.is_set():
                peak_rss = max(peak_rss, rss_kib(lobby.pid))
                peak_fds = max(peak_fds, fds(lobby.pid))
                time.sleep(0.25)
        sampler = threading.Thread(target=sample, daemon=True)
        sampler.start()
        time.sleep(1.5)
        failed = ""
        try:
            loud = game.rounds(5.0)
        except (ConnectionError, OSError) as e:
            failed, loud = str(e) or type(e).__name__, []
        anchor = anchor_game.rounds(3.0)
        att.stop.set()
        att.join(10)
        sampler_stop.set()
        sampler.join()
    finally:
        lobby.terminate()
        lobby.wait(10)
    conns = min(20000, n * (SOURCE_CONNS + HOLD_SLACK))
    kept = min(KEPT_BYTES, n * SOURCE_BYTES)
    queued = min(conns, n * SOURCE_CONNS) * MAX_WRITE_QUEUE
    limit_kib = base_rss + (conns * CONN_BYTES + kept + queued) // 1024
    limit_fds = base_fds + conns + FD_SPARE
    q99, l99 = pct(quiet, 0.99), pct(loud, 0.99) if loud else float("inf")
    a99 = pct(anchor, 0.99)
    ok = (not failed and l99 <= 2 * max(q99, a99) and
          peak_rss <= limit_kib and peak_fds <= limit_fds)
    print("%-5s %3d addr  quiet p50 %5.0f p99 %5.0f us | attacked p50 %5.0f"
          " p99 %6.0f us (%3d rounds) | anchor attacked p99 %6.0f us | rss "
          "%6d KiB (limit %d)  fds %4d (limit %d)  opened %d  %s%s" %
          (kind, n, statistics.median(quiet) * 1e6, q99 * 1e6,
           statistics.median(loud) * 1e6 if loud else 0, l99 * 1e6 if loud else 0,
           len(loud), a99 * 1e6, peak_rss, limit_kib, peak_fds, limit_fds,
           att.opened_total, "ok" if ok else "FAIL",
           " (" + failed + ")" if failed else ""),
          flush=True)
    return ok


def main():
    args = sys.argv[1:]
    if not args or args[0].startswith("-"):
        print(__doc__.strip().split("\n\n")[-2], file=sys.stderr)
        return 2
    tabula, kinds, addrs = args[0], [], [1, 4, 100]
    i = 1
    while i < len(args):
        if args[i] == "--addresses" and i + 1 < len(args):
            addrs = [int(x) for x in args[i + 1].split(",")]
            i += 2
        else:
            kinds.append(args[i])
            i += 1
    kinds = kinds or ["conns", "http", "slow", "flood", "guess"]
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    random.seed(1)
    ok = True
    anchor = Anchor(tabula)
    for kind in kinds:
        for n in addrs:
            ok = phase(tabula, kind, n, anchor) and ok
    anchor.close()
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
