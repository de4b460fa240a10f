"""Maatatahay drawn as SVG (filled in once engine.maatatahay's view lands)."""
from __future__ import annotations

import json
from typing import Any

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe


def board_svg(view: dict[str, Any], *, flip: bool = False) -> SafeString:
    return mark_safe("<pre>%s</pre>" % escape(json.dumps(view, indent=1)))


def extras_svg(view: dict[str, Any], *, flip: bool = False) -> SafeString:
    return mark_safe("")
