"""``python -m workers serve --data-dir DIR [--host 127.0.0.1] [--port N]`` (contract 1).

``--header-timeout``, ``--body-timeout`` and ``--idle-timeout`` set the R44 limits.
``--model-base-url URL --model NAME`` choose the model assistant, the same as
``AMBIENT_MODEL_BASE_URL`` and ``AMBIENT_MODEL`` (contract 7); the API key comes
only from ``AMBIENT_MODEL_API_KEY``, so it never shows in a process listing.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from workers.model.choose import AssistantChoiceError
from workers.server import LOOPBACK, serve_forever
from workers.settings import (
    BODY_TIMEOUT_SECONDS,
    HEADER_TIMEOUT_SECONDS,
    IDLE_TIMEOUT_SECONDS,
    Settings,
)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m workers", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    serve = commands.add_parser("serve", help="run the backend until interrupted")
    serve.add_argument("--data-dir", type=Path, required=True, help="database, token, workspaces")
    serve.add_argument(
        "--host",
        help=f"address to bind; serves any Host name (default: {LOOPBACK}, loopback names only)",
    )
    serve.add_argument("--port", type=int, default=0, help="port; 0 picks a free one (default)")
    serve.add_argument(
        "--header-timeout",
        type=float,
        default=HEADER_TIMEOUT_SECONDS,
        help=f"seconds a request's headers may take (default: {HEADER_TIMEOUT_SECONDS:g})",
    )
    serve.add_argument(
        "--body-timeout",
        type=float,
        default=BODY_TIMEOUT_SECONDS,
        help=f"seconds a request's body may take (default: {BODY_TIMEOUT_SECONDS:g})",
    )
    serve.add_argument(
        "--idle-timeout",
        type=int,
        default=IDLE_TIMEOUT_SECONDS,
        help=f"seconds an idle kept-alive connection stays open (default: {IDLE_TIMEOUT_SECONDS})",
    )
    serve.add_argument(
        "--model-base-url",
        metavar="URL",
        help="an OpenAI-compatible endpoint, e.g. http://127.0.0.1:8080/v1 (default: offline)",
    )
    serve.add_argument("--model", metavar="NAME", help="the model id at that endpoint")
    return parser


def main(argv: list[str] | None = None) -> int:
    arguments = _parser().parse_args(argv)
    if arguments.command == "serve":
        settings = Settings(
            data_dir=arguments.data_dir,
            header_timeout_seconds=arguments.header_timeout,
            body_timeout_seconds=arguments.body_timeout,
            idle_timeout_seconds=arguments.idle_timeout,
            model_base_url=arguments.model_base_url,
            model=arguments.model,
            any_host=arguments.host is not None,
        )
        host = arguments.host or LOOPBACK
        try:
            settings.resolve_sweep_interval()
        except ValueError as error:  # from the environment: say so, no traceback
            print(f"workers: {error}", file=sys.stderr)
            return 2
        try:
            serve_forever(settings, host, arguments.port)
        except AssistantChoiceError as error:
            print(f"workers: {error}", file=sys.stderr)
            return 2
        except OSError as error:
            print(
                f"workers: cannot listen on {host}:{arguments.port}: {error}",
                file=sys.stderr,
            )
            return 1
        except KeyboardInterrupt:
            return 0
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
