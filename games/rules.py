"""The rules pages inside the app, read from the project's own ``docs/rules/<game>.md``: one source.

A small reader for the Markdown those pages use (headings, paragraphs, lists one level deep,
tables, code blocks, **bold**, *italic*, `code`, [links](url)). It turns the text into plain
data (blocks of spans); ``templates/games/rules.html`` draws them, so every tag is in a template
and every text is escaped by Django.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path
from typing import Any

from django.conf import settings
from django.utils.text import slugify

from engine import GAMES

RULES_DIR = Path(settings.BASE_DIR) / "docs" / "rules"
SPAN = re.compile(
    r"\*\*(?P<strong>.+?)\*\*|`(?P<code>[^`]+)`|\*(?P<em>[^*\s][^*]*?)\*|\[(?P<link>[^\]]+)\]\((?P<href>[^)\s]+)\)"
)
LIST_ITEM = re.compile(r"^(?P<indent> *)(?P<marker>[-*]|\d+\.) +(?P<text>.*)$")
HEADING = re.compile(r"^(?P<hashes>#{1,6}) +(?P<text>.*?)#*\s*$")
# Notes for the project's developers (where the code and tests live) are not for players.
DEVELOPER_NOTE = re.compile(r"`(?:engine|tests|shared|games)/")


def spans(text: str) -> list[dict[str, str]]:
    """Inline Markdown as ``{"kind": "text"|"strong"|"em"|"code"|"link", "text", "href"}`` pieces."""
    result: list[dict[str, str]] = []
    at = 0
    for found in SPAN.finditer(text):
        if found.start() > at:
            result.append({"kind": "text", "text": text[at : found.start()]})
        kind = next(k for k in ("strong", "code", "em", "link") if found.group(k) is not None)
        piece = {"kind": kind, "text": found.group(kind)}
        if kind == "link":
            href = found.group("href")
            # Only addresses a reader can follow from the site; a path into the repository becomes plain text.
            piece = (
                {"kind": "link", "text": piece["text"], "href": href}
                if href.startswith("https://")
                else {
                    "kind": "text",
                    "text": piece["text"],
                }
            )
        result.append(piece)
        at = found.end()
    if at < len(text):
        result.append({"kind": "text", "text": text[at:]})
    return result


def parse(markdown: str) -> list[dict[str, Any]]:
    """The page as blocks: heading, paragraph, list, table, code."""
    lines, i = markdown.splitlines(), 0
    blocks: list[dict[str, Any]] = []
    while i < len(lines):
        line = lines[i]
        if not line.strip():
            i += 1
        elif line.startswith("```"):
            end = next((j for j in range(i + 1, len(lines)) if lines[j].startswith("```")), len(lines))
            blocks.append({"kind": "code", "text": "\n".join(lines[i + 1 : end])})
            i = end + 1
        elif line.startswith("    "):
            end = next(
                (j for j in range(i, len(lines)) if lines[j].strip() and not lines[j].startswith("    ")), len(lines)
            )
            blocks.append({"kind": "code", "text": "\n".join(x[4:] for x in lines[i:end]).rstrip()})
            i = end
        elif HEADING.match(line):
            found = HEADING.match(line)
            assert found is not None
            text = found.group("text")
            blocks.append(
                {"kind": "heading", "level": len(found.group("hashes")), "spans": spans(text), "id": slugify(text)}
            )
            i += 1
        elif line.lstrip().startswith("|"):
            i = _table(lines, i, blocks)
        elif LIST_ITEM.match(line):
            i = _list(lines, i, blocks)
        else:
            end = i
            while end < len(lines) and lines[end].strip() and not _starts_block(lines[end]):
                end += 1
            text = " ".join(x.strip() for x in lines[i:end])
            if not DEVELOPER_NOTE.search(text):
                blocks.append({"kind": "paragraph", "spans": spans(text)})
            i = max(end, i + 1)
    return blocks


def _starts_block(line: str) -> bool:
    return bool(HEADING.match(line) or LIST_ITEM.match(line) or line.startswith("```") or line.lstrip().startswith("|"))


def _table(lines: list[str], i: int, blocks: list[dict[str, Any]]) -> int:
    rows = []
    while i < len(lines) and lines[i].lstrip().startswith("|"):
        cells = [c.strip() for c in lines[i].strip().strip("|").split("|")]
        if not all(re.fullmatch(r":?-+:?", c) for c in cells):
            rows.append([spans(c) for c in cells])
        i += 1
    if rows:
        blocks.append({"kind": "table", "head": rows[0], "rows": rows[1:]})
    return i


def _list(lines: list[str], i: int, blocks: list[dict[str, Any]]) -> int:
    """A list, its items' continuation lines joined, items indented under an item as its sub-list."""
    first = LIST_ITEM.match(lines[i])
    assert first is not None
    top = len(first.group("indent"))
    ordered = first.group("marker")[0].isdigit()
    items: list[dict[str, Any]] = []
    while i < len(lines):
        line = lines[i]
        found = LIST_ITEM.match(line)
        if not line.strip():
            following = next((x for x in lines[i + 1 :] if x.strip()), "")
            if not following.startswith(" ") and not (
                LIST_ITEM.match(following) and following[:1].isdigit() == ordered
            ):
                break
        elif found and len(found.group("indent")) <= top:
            items.append({"texts": [found.group("text")], "children": []})
        elif found and items:
            items[-1]["children"].append([found.group("text")])
        elif line.startswith(" ") and items:
            target = items[-1]["children"][-1] if items[-1]["children"] else items[-1]["texts"]
            target.append(line.strip())
        else:
            break
        i += 1
    blocks.append(
        {
            "kind": "list",
            "ordered": ordered,
            "items": [
                {"spans": spans(" ".join(it["texts"])), "children": [spans(" ".join(c)) for c in it["children"]]}
                for it in items
            ],
        }
    )
    return i


@cache
def rules_page(game: str) -> dict[str, Any] | None:
    """The game's rules as a title and blocks; None for a game without a page. Read once per process."""
    if game not in GAMES:
        return None
    path = RULES_DIR / f"{game}.md"
    if not path.is_file():
        return None
    blocks = parse(path.read_text(encoding="utf-8"))
    title = blocks.pop(0)["spans"] if blocks and blocks[0]["kind"] == "heading" and blocks[0]["level"] == 1 else []
    return {
        "title": title,
        "blocks": blocks,
        "contents": [b for b in blocks if b["kind"] == "heading" and b["level"] == 2],
    }
