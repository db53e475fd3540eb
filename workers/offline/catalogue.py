"""Message catalogues: the offline assistant's phrases in the language of the request (R38).

Catalogues are gettext ``.po`` files under ``locale/``, the only source of the
translations. They are compiled in memory with Babel the first time a language is
used, so a fresh clone needs no build step and no compiled ``.mo`` file is kept in
the repository. English is the message ids themselves.
"""

from __future__ import annotations

import gettext
from collections.abc import Collection, Mapping
from functools import cache
from io import BytesIO
from pathlib import Path
from typing import Final

DOMAIN: Final = "offline"
LOCALE_DIR: Final = Path(__file__).with_name("locale")


def message_ids(names: Mapping[str, object], *, pieces: Collection[str] = ()) -> tuple[str, ...]:
    """The message ids of a phrases module: its upper-case strings, sorted by their names.

    ``names`` is the module's ``globals()``; ``pieces`` are phrases only ever part of
    other phrases, which the catalogue translates whole.
    """
    return tuple(
        value
        for name, value in sorted(names.items())
        if name.isupper() and isinstance(value, str) and value not in pieces
    )


@cache
def translations(language: str, domain: str = DOMAIN) -> gettext.NullTranslations:
    """The catalogue for ``language``; English (and any language without one) is the ids."""
    path = LOCALE_DIR / language / "LC_MESSAGES" / f"{domain}.po"
    if not path.is_file():
        return gettext.NullTranslations()
    # Babel is imported here, not at the top: only a language with a catalogue needs it,
    # and at start it would cost the app's idle memory about 5 MiB (issue 33).
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    with path.open("rb") as source:
        catalog = read_po(source, locale=language, domain=domain)
    compiled = BytesIO()
    write_mo(compiled, catalog)
    compiled.seek(0)
    return gettext.GNUTranslations(compiled)


def phrase(language: str, message: str, /, *, domain: str = DOMAIN, **values: object) -> str:
    """``message`` in ``language`` (from the ``domain`` catalogue) with its placeholders filled."""
    translated = translations(language, domain).gettext(message)
    return translated.format(**values) if values else translated
