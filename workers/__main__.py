"""``python -m workers serve --data-dir DIR [--host 127.0.0.1] [--port N]`` (contract 1).

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
from workers.settings import Settings


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m workers", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    serve = commands.add_parser("serve", help="run the backend until interrupted")
    serve.add_argument("--data-dir", type=Path, required=True, help="database, token, workspaces")
    serve.add_argument("--host", default=LOOPBACK, help="address to bind (default: loopback)")
    serve.add_argument("--port", type=int, default=0, help="port; 0 picks a free one (default)")
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
            model_base_url=arguments.model_base_url,
            model=arguments.model,
        )
        try:
            serve_forever(settings, arguments.host, arguments.port)
        except AssistantChoiceError as error:
            print(f"workers: {error}", file=sys.stderr)
            return 2
        except OSError as error:
            print(
                f"workers: cannot listen on {arguments.host}:{arguments.port}: {error}",
                file=sys.stderr,
            )
            return 1
        except KeyboardInterrupt:
            return 0
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
