"""The floor: a bare Flask app that answers "hello", served exactly as ``scorepad serve`` serves.

``python bench/floor.py --port 8001`` runs it under waitress with the same thread count as
``scorepad serve``, so the ratio of scorepad's requests per second to this app's is the share
of the server's capacity that scorepad's own work leaves.
"""

from __future__ import annotations

import argparse

import waitress
from flask import Flask

from scorepad.cli import build_parser


def create_app() -> Flask:
    app = Flask(__name__)

    @app.get("/")
    def hello() -> str:
        return "hello"

    return app


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, required=True)
    args = parser.parse_args()
    threads = build_parser().parse_args(["serve"]).threads  # whatever `scorepad serve` uses
    waitress.serve(create_app(), host=args.host, port=args.port, threads=threads, ident="floor")


if __name__ == "__main__":
    main()
