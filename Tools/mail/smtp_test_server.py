#!/usr/bin/env python3
"""A local SMTP server for the SMTP transport's tests (aiosmtpd).

Modes:
  starttls  STARTTLS required, then AUTH (user "povver", password "s3cret") required; a fresh self-signed
            certificate for localhost / 127.0.0.1 is made with openssl and its path printed as the CA.
  plain     no TLS, no AUTH.

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
    parser.add_argument("--mode", choices=["starttls", "plain"], default="starttls")
    args = parser.parse_args()
    directory = tempfile.mkdtemp(prefix="povver-smtp-")
    port = free_port()
    ca = None
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


if __name__ == "__main__":
    main()
