#!/usr/bin/python3
"""A throwaway SMTP server for tests: saves every accepted message as a .eml file.

    smtp-sink.py --dir OUT [--port 0] [--refuse N] [--auth user:pass] [--starttls CERT KEY | --tls CERT KEY]

Listens on 127.0.0.1 (port 0 picks a free one) and prints "PORT <n>" once it accepts
connections. Each message becomes OUT/<n>.eml (written to a hidden file, then renamed) next to
OUT/<n>.json with the envelope (mail_from, rcpt_tos, mail_options). --refuse N answers the first
N DATA commands with 451 and accepts after that; --auth requires AUTH PLAIN/LOGIN with that
user and password (allowed without TLS, for loopback tests only); --starttls offers STARTTLS with
that PEM certificate and key and refuses mail until the client has switched to TLS; --tls speaks
TLS from the first byte instead (smtps://). Stops on SIGTERM or SIGINT.
Needs aiosmtpd (Debian: apt-get install -y python3-aiosmtpd).
"""
import argparse
import asyncio
import json
import os
import signal
import ssl
import sys

from aiosmtpd.smtp import SMTP, AuthResult, LoginPassword


class Sink:
    def __init__(self, folder, refuse):
        self.folder = folder
        self.refuse = refuse
        self.saved = 0

    async def handle_DATA(self, server, session, envelope):
        if self.refuse > 0:
            self.refuse -= 1
            return "451 4.3.0 Temporarily refusing mail, try again later"
        self.saved += 1
        name = "%06d" % self.saved
        envelope_info = {
            "mail_from": envelope.mail_from,
            "rcpt_tos": envelope.rcpt_tos,
            "mail_options": envelope.mail_options,
            "tls": session.ssl is not None,
        }
        self._write(name + ".json", json.dumps(envelope_info).encode())
        self._write(name + ".eml", envelope.original_content)
        return "250 2.0.0 Saved as " + name


    def _write(self, name, data):
        temporary = os.path.join(self.folder, "." + name + ".tmp")
        with open(temporary, "wb") as file:
            file.write(data)
        os.rename(temporary, os.path.join(self.folder, name))


def authenticator_for(expected):
    user, _, password = expected.partition(":")

    def authenticate(server, session, envelope, mechanism, auth_data):
        ok = (isinstance(auth_data, LoginPassword)
              and auth_data.login.decode() == user and auth_data.password.decode() == password)
        return AuthResult(success=ok, handled=False)

    return authenticate


async def main():
    parser = argparse.ArgumentParser(description="SMTP sink for tests")
    parser.add_argument("--dir", required=True)
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--refuse", type=int, default=0)
    parser.add_argument("--auth")
    parser.add_argument("--starttls", nargs=2, metavar=("CERT", "KEY"))
    parser.add_argument("--tls", nargs=2, metavar=("CERT", "KEY"))
    options = parser.parse_args()
    os.makedirs(options.dir, exist_ok=True)

    sink = Sink(options.dir, options.refuse)
    settings = {"decode_data": False, "enable_SMTPUTF8": True}
    if options.auth:
        settings.update(authenticator=authenticator_for(options.auth),
                        auth_required=True, auth_require_tls=False)

    # A parent's worker thread may have blocked signals, and a spawned child inherits the mask.
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM, signal.SIGINT})
    if options.starttls:
        context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        context.load_cert_chain(*options.starttls)
        settings.update(tls_context=context, require_starttls=True)
    implicit = None
    if options.tls:
        implicit = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        implicit.load_cert_chain(*options.tls)
    loop = asyncio.get_running_loop()
    server = await loop.create_server(lambda: SMTP(sink, **settings), "127.0.0.1", options.port,
                                      ssl=implicit)
    stop = asyncio.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    print("PORT %d" % server.sockets[0].getsockname()[1], flush=True)
    await stop.wait()
    server.close()
    await server.wait_closed()


if __name__ == "__main__":
    asyncio.run(main())
