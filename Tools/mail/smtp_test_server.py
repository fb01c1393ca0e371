#!/usr/bin/env python3
"""A local SMTP server for the SMTP transport's tests (aiosmtpd).

Modes:
  starttls  STARTTLS required, then AUTH (user "povver", password "s3cret") required; a fresh self-signed
            certificate for localhost / 127.0.0.1 is made with openssl and its path printed as the CA.
  plain     no TLS, no AUTH.
  desync    an on-path attacker's view: offers STARTTLS, then sends a forged "250" right behind its "220" reply
            to STARTTLS, in plain text (a client that goes on would read it as a TLS-era reply).

Prints one line `READY {"port": ..., "ca": ...}` when listening, then one JSON line per message received
({mail_from, rcpt_tos, subject, body, authenticated, tls}). Stops on SIGTERM or when stdin closes.
"""
import argparse
import json
import os
import signal
import shutil
import socket
import ssl
import subprocess
import sys
import tempfile
import threading

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult, LoginPassword
from email import message_from_bytes, policy

USER, PASSWORD = b"povver", b"s3cret"


class Handler:
    async def handle_DATA(self, server, session, envelope):
        message = message_from_bytes(envelope.content, policy=policy.default)
        part = message.get_body(preferencelist=("plain",))
        record = {
            "mail_from": envelope.mail_from,
            "rcpt_tos": envelope.rcpt_tos,
            "subject": str(message["subject"]),
            "body": part.get_content() if part is not None else "",
            "authenticated": bool(session.authenticated),
            "tls": bool(session.ssl),
            "message_id": str(message["message-id"]),
        }
        print(json.dumps(record), flush=True)
        return "250 Message accepted"


def authenticator(server, session, envelope, mechanism, auth_data):
    ok = isinstance(auth_data, LoginPassword) and auth_data.login == USER and auth_data.password == PASSWORD
    return AuthResult(success=ok, handled=False)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def make_certificate(directory):
    cert, key = os.path.join(directory, "cert.pem"), os.path.join(directory, "key.pem")
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
         "-keyout", key, "-out", cert, "-days", "1", "-subj", "/CN=localhost",
         "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1"],
        check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return cert, key


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--mode", choices=["starttls", "plain", "desync"], default="starttls")
    args = parser.parse_args()
    directory = tempfile.mkdtemp(prefix="povver-smtp-")
    port = free_port()
    ca = None
    if args.mode == "desync":
        serve_desync(port)
        return
    if args.mode == "starttls":
        ca, key = make_certificate(directory)
        context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        context.load_cert_chain(ca, key)
        controller = Controller(
            Handler(), hostname="127.0.0.1", port=port, tls_context=context, require_starttls=True,
            authenticator=authenticator, auth_require_tls=True, auth_required=True)
    else:
        controller = Controller(Handler(), hostname="127.0.0.1", port=port)
    controller.start()
    print("READY " + json.dumps({"port": port, "ca": ca}), flush=True)

    done = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: done.set())
    threading.Thread(target=lambda: (sys.stdin.read(), done.set()), daemon=True).start()
    done.wait()
    controller.stop()
    shutil.rmtree(directory, ignore_errors=True)


def serve_desync(port):
    """Answers one client at a time with the STARTTLS injection, until stdin closes."""
    listener = socket.socket()
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", port))
    listener.listen()
    print("READY " + json.dumps({"port": port, "ca": None}), flush=True)

    def session(connection):
        with connection:
            connection.sendall(b"220 localhost ESMTP\r\n")
            reader = connection.makefile("rb")
            for line in reader:
                verb = line.strip().upper()
                if verb.startswith(b"EHLO"):
                    connection.sendall(b"250-localhost\r\n250-AUTH PLAIN\r\n250 STARTTLS\r\n")
                elif verb == b"STARTTLS":
                    connection.sendall(b"220 Ready to start TLS\r\n250 injected\r\n")
                elif verb == b"QUIT":
                    connection.sendall(b"221 bye\r\n")
                    return
                else:
                    connection.sendall(b"500 not here\r\n")

    def accept():
        while True:
            try:
                connection, _ = listener.accept()
            except OSError:
                return
            threading.Thread(target=session, args=(connection,), daemon=True).start()

    threading.Thread(target=accept, daemon=True).start()
    sys.stdin.read()
    listener.close()


if __name__ == "__main__":
    main()
