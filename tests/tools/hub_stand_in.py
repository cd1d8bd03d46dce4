#!/usr/bin/env python3
"""A local stand-in for the Hugging Face Hub, for bertkit's download tests (no network in CI).

Serves folders as model repositories with the protocol huggingface_hub speaks:
  GET  /api/models/{repo}/revision/{revision}   -> {"id", "sha", "siblings": [{"rfilename"}]}
  HEAD/GET /{repo}/resolve/{revision}/{path}     -> X-Repo-Commit, ETag, Content-Length; a file larger than
       --lfs-above is an LFS file: 302 to http://localhost:PORT/lfs/{sha256} (another host name than the
       127.0.0.1 the client was given) with X-Linked-Etag (its sha256) and X-Linked-Size
  GET  /lfs/{sha256}                             -> the bytes, with Range
Switches to misbehave, set with GET /_control?name=value&... (an empty value clears one):
  drop_after=N   close the connection after N bytes of a file body (its Content-Length promised more)
  corrupt=1      flip one byte in the middle of every LFS body
  delay=SECONDS  sleep this long before each 64 KiB of a body (slow)
  status=CODE    answer CODE to every repository request (the API and resolve), error_code=X-Error-Code
  fail_file=PATH answer 500 to the resolve requests of that file (a download cut off between two files)
  token=T        answer 401 to repository requests without "Authorization: Bearer T"
GET /_stats -> {"body_bytes", "requests": [[method, path, range], ...], "lfs_authorization": n};
GET /_stats?reset=1 resets them.

Usage: hub_stand_in.py --port-file FILE --repo ORG/NAME=FOLDER [--repo ORG/NAME@BRANCH=FOLDER]...
The port (ephemeral, on 127.0.0.1) is written to FILE once the server listens. It stops when its
parent (the test) dies or on SIGTERM.
"""
import argparse
import hashlib
import http.server
import json
import os
import socket
import sys
import threading
import time
import urllib.parse

CHUNK = 64 * 1024


class Repo:
    def __init__(self, repo_id, branch, folder, lfs_above):
        self.id, self.branch, self.folder = repo_id, branch, folder
        self.files = {}  # path -> (bytes, etag, is_lfs)
        for root, _, names in os.walk(folder):
            for name in sorted(names):
                full = os.path.join(root, name)
                rel = os.path.relpath(full, folder).replace(os.sep, "/")
                data = open(full, "rb").read()
                lfs = len(data) > lfs_above
                etag = hashlib.sha256(data).hexdigest() if lfs else \
                    hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()
                self.files[rel] = (data, etag, lfs)
        digest = hashlib.sha1((repo_id + "@" + branch).encode())
        for rel in sorted(self.files):
            digest.update(rel.encode() + self.files[rel][1].encode())
        self.commit = digest.hexdigest()


class State:
    def __init__(self):
        self.lock = threading.Lock()
        self.switches = {}
        self.reset()

    def reset(self):
        self.body_bytes = 0
        self.requests = []
        self.lfs_authorization = 0


def make_handler(repos, state):
    lfs = {}
    for r in repos:
        for data, etag, is_lfs in r.files.values():
            if is_lfs:
                lfs[etag] = data

    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args):
            pass

        def switch(self, name):
            return state.switches.get(name, "")

        def reply(self, code, body=b"", headers=None, content_type="application/json"):
            self.send_response(code)
            for k, v in (headers or {}).items():
                self.send_header(k, v)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            if self.command != "HEAD":
                self.wfile.write(body)

        def error(self, code, error_code=None, message="error"):
            headers = {"X-Error-Code": error_code} if error_code else {}
            self.reply(code, json.dumps({"error": message}).encode(), headers)

        def find(self, repo_id, revision):
            for r in repos:
                if r.id == repo_id and revision in (r.branch, r.commit):
                    return r
            return None

        def repo_guard(self):
            """The misbehaviour switches of repository requests; True when answered."""
            if self.switch("status"):
                self.error(int(self.switch("status")), self.switch("error_code") or None)
                return True
            token = self.switch("token")
            if token and self.headers.get("Authorization") != "Bearer " + token:
                self.error(401, "GatedRepo" if self.switch("error_code") == "GatedRepo" else None,
                           "Access to this model is restricted")
                return True
            return False

        def repo_at(self, repo_id, revision, not_found):
            """The repository at `revision`, or None once the switches or a 404 answered."""
            if self.repo_guard():
                return None
            if not any(r.id == repo_id for r in repos):
                self.error(404, "RepoNotFound", "Repository not found")
                return None
            r = self.find(repo_id, revision)
            if r is None:
                self.error(404, "RevisionNotFound", not_found)
            return r

        def send_body(self, data, headers):
            start, end = 0, len(data)
            rng = self.headers.get("Range")
            code = 200
            if rng and rng.startswith("bytes="):
                first, _, last = rng[6:].partition("-")
                start = int(first or 0)
                end = int(last) + 1 if last else len(data)
                if start >= len(data):
                    self.reply(416, b"", {"Content-Range": "bytes */%d" % len(data)})
                    return
                code = 206
                headers["Content-Range"] = "bytes %d-%d/%d" % (start, end - 1, len(data))
            body = data[start:end]
            self.send_response(code)
            for k, v in headers.items():
                self.send_header(k, v)
            self.send_header("Accept-Ranges", "bytes")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            if self.command == "HEAD":
                return
            drop = int(self.switch("drop_after") or -1)
            delay = float(self.switch("delay") or 0)
            sent = 0
            while sent < len(body):
                if delay:
                    time.sleep(delay)
                piece = body[sent:sent + CHUNK]
                if 0 <= drop < sent + len(piece):
                    piece = piece[:max(0, drop - sent)]
                    self.wfile.write(piece)
                    with state.lock:
                        state.body_bytes += len(piece)
                    self.wfile.flush()
                    self.connection.shutdown(socket.SHUT_RDWR)
                    self.close_connection = True
                    return
                self.wfile.write(piece)
                with state.lock:
                    state.body_bytes += len(piece)
                sent += len(piece)

        def do_HEAD(self):
            self.do_GET()

        def do_GET(self):
            url = urllib.parse.urlsplit(self.path)
            path = urllib.parse.unquote(url.path)
            query = dict(urllib.parse.parse_qsl(url.query, keep_blank_values=True))
            with state.lock:
                if not path.startswith("/_"):
                    state.requests.append([self.command, path, self.headers.get("Range", "")])
            if path == "/_control":
                with state.lock:
                    for k, v in query.items():
                        if v:
                            state.switches[k] = v
                        else:
                            state.switches.pop(k, None)
                return self.reply(200, b"{}")
            if path == "/_stats":
                with state.lock:
                    out = {"body_bytes": state.body_bytes, "requests": state.requests,
                           "lfs_authorization": state.lfs_authorization}
                    if "reset" in query:
                        state.reset()
                return self.reply(200, json.dumps(out).encode())
            if path.startswith("/lfs/"):
                data = lfs.get(path[5:])
                if data is None:
                    return self.error(404)
                if self.headers.get("Authorization"):
                    with state.lock:
                        state.lfs_authorization += 1
                if self.switch("corrupt"):
                    mid = len(data) // 2
                    data = data[:mid] + bytes([data[mid] ^ 0xFF]) + data[mid + 1:]
                return self.send_body(data, {"ETag": '"%s"' % path[5:]})
            if path.startswith("/api/models/"):
                repo_id, _, revision = path[len("/api/models/"):].partition("/revision/")
                r = self.repo_at(repo_id, revision, "Invalid rev id: " + revision)
                if r is None:
                    return
                info = {"id": r.id, "sha": r.commit, "siblings": [{"rfilename": f} for f in sorted(r.files)]}
                return self.reply(200, json.dumps(info).encode())
            if "/resolve/" in path:
                repo_id, _, rest = path[1:].partition("/resolve/")
                revision, _, file_path = rest.partition("/")
                r = self.repo_at(repo_id, revision, "Invalid rev id")
                if r is None:
                    return
                if file_path not in r.files:
                    return self.error(404, "EntryNotFound", "Entry not found")
                if self.switch("fail_file") == file_path:
                    return self.error(500, None, "Internal Error")
                data, etag, is_lfs = r.files[file_path]
                if is_lfs:
                    port = self.server.server_address[1]
                    return self.reply(302, b"", {
                        "Location": "http://localhost:%d/lfs/%s" % (port, etag),
                        "X-Repo-Commit": r.commit, "X-Linked-Etag": '"%s"' % etag,
                        "X-Linked-Size": str(len(data)), "ETag": '"%s"' % hashlib.sha1(etag.encode()).hexdigest()})
                return self.send_body(data, {"X-Repo-Commit": r.commit, "ETag": '"%s"' % etag})
            self.error(404)

    return Handler


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port-file", required=True)
    parser.add_argument("--repo", action="append", default=[], help="ORG/NAME[@BRANCH]=FOLDER")
    parser.add_argument("--lfs-above", type=int, default=1_000_000)
    args = parser.parse_args()
    repos = []
    for spec in args.repo:
        name, _, folder = spec.partition("=")
        repo_id, _, branch = name.partition("@")
        repos.append(Repo(repo_id, branch or "main", folder, args.lfs_above))
    state = State()
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), make_handler(repos, state))
    server.daemon_threads = True
    tmp = args.port_file + ".tmp"
    with open(tmp, "w") as f:
        f.write(str(server.server_address[1]))
    os.rename(tmp, args.port_file)
    parent = os.getppid()
    try:  # Linux: SIGTERM when the test that started it dies, even by SIGKILL
        import ctypes
        import signal
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass

    def watch_parent():  # never outlive the test that started it (and elsewhere than Linux too)
        while os.getppid() == parent:
            time.sleep(0.2)
        os._exit(0)

    threading.Thread(target=watch_parent, daemon=True).start()
    server.serve_forever()


if __name__ == "__main__":
    sys.exit(main())
