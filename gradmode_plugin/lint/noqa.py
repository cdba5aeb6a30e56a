"""``# noqa`` comments: ``# noqa: GM101`` (or a prefix, ``# noqa: GM1``) silences those codes on its line; a bare
``# noqa`` silences every finding there, as in flake8 and ruff.

Example:
    >>> suppressed("F.dropout(x)  # noqa: GM101, E501", "GM101"), suppressed("F.dropout(x)  # noqa: E501", "GM101")
    (True, False)
"""

from __future__ import annotations

import re
from typing import Final

_NOQA: Final = re.compile(r"#\s*noqa(?::\s*(?P<codes>[A-Za-z]+[0-9]*(?:[\s,]+[A-Za-z]+[0-9]*)*))?", re.IGNORECASE)


def suppressed(line: str, code: str) -> bool:
    """Whether a ``# noqa`` comment on ``line`` silences ``code``."""
    if "noqa" not in line.lower():
        return False
    for match in _NOQA.finditer(line):
        codes = match.group("codes")
        if codes is None:
            return True
        if any(code.startswith(listed.upper()) for listed in re.split(r"[\s,]+", codes) if listed):
            return True
    return False
