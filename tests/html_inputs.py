"""Each ``<input>`` of a page with its attributes, by name, as a browser reads them from the markup."""

from __future__ import annotations

from html.parser import HTMLParser


class _Inputs(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.inputs: dict[str, dict[str, str]] = {}

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = {k: v or "" for k, v in attrs}
        if tag == "input" and found.get("name"):
            self.inputs[found["name"]] = found


def rendered_inputs(html: str) -> dict[str, dict[str, str]]:
    parser = _Inputs()
    parser.feed(html)
    return parser.inputs
