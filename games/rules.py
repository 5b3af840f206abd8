"""The rules pages inside the app, read from the project's own ``docs/rules/<game>.md``: one source.

markdown-it-py reads the Markdown (CommonMark with tables; raw HTML off, so a tag in a rules file is text).
Its syntax tree becomes plain data (blocks of spans) that ``templates/games/rules.html`` draws, so every tag
is in a template and every text is escaped by Django. The notes for developers live in ``docs/rules-notes/``.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

from django.conf import settings
from django.utils.text import slugify
from markdown_it import MarkdownIt
from markdown_it.tree import SyntaxTreeNode

from engine import GAMES

RULES_DIR = Path(settings.BASE_DIR) / "docs" / "rules"
MARKDOWN = MarkdownIt("commonmark", {"html": False}).enable("table")
SPAN_KINDS = {"strong": "strong", "em": "em", "code_inline": "code", "link": "link"}
LIST_KINDS = ("bullet_list", "ordered_list")


def text_of(node: SyntaxTreeNode) -> str:
    """The plain text under a node, line breaks as spaces."""
    if node.type in ("softbreak", "hardbreak"):
        return " "
    if node.type in ("text", "code_inline"):
        return node.content
    return "".join(text_of(child) for child in node.children)


def spans(inline: SyntaxTreeNode | None) -> list[dict[str, str]]:
    """An inline node as ``{"kind": "text"|"strong"|"em"|"code"|"link", "text", "href"}`` pieces."""
    result: list[dict[str, str]] = []
    for child in inline.children if inline is not None else []:
        kind = SPAN_KINDS.get(child.type, "text")
        piece = {"kind": kind, "text": text_of(child)}
        if kind == "link":
            href = str(child.attrs.get("href", ""))
            # Only addresses a reader can follow from the site; a path into the repository becomes plain text.
            piece = (
                {"kind": "link", "text": piece["text"], "href": href}
                if href.startswith("https://")
                else {
                    "kind": "text",
                    "text": piece["text"],
                }
            )
        if piece["kind"] == "text" and result and result[-1]["kind"] == "text":
            result[-1] = {"kind": "text", "text": result[-1]["text"] + piece["text"]}
        elif piece["text"]:
            result.append(piece)
    return result


def inline_of(node: SyntaxTreeNode) -> SyntaxTreeNode | None:
    return next((child for child in node.children if child.type == "inline"), None)


def list_item(node: SyntaxTreeNode) -> dict[str, Any]:
    """A list item: its paragraphs as one run of spans, the items of any list inside it as its children."""
    texts: list[dict[str, str]] = []
    children: list[list[dict[str, str]]] = []
    for child in node.children:
        if child.type in LIST_KINDS:
            children += [paragraphs_of(grandchild) for grandchild in child.children]
        else:
            if texts:
                texts.append({"kind": "text", "text": " "})
            texts += paragraphs_of(child)
    return {"spans": texts, "children": children}


def paragraphs_of(node: SyntaxTreeNode) -> list[dict[str, str]]:
    """Every inline run under a node, one after another (a deeper list is read as text)."""
    if node.type == "inline":
        return spans(node)
    found: list[dict[str, str]] = []
    for child in node.children:
        more = paragraphs_of(child)
        if found and more:
            found.append({"kind": "text", "text": " "})
        found += more
    return found


def table(node: SyntaxTreeNode) -> dict[str, Any]:
    rows = [
        [spans(inline_of(cell)) for cell in row.children]
        for section in node.children
        for row in section.children
        if row.type == "tr"
    ]
    return {"kind": "table", "head": rows[0] if rows else [], "rows": rows[1:]}


def block(node: SyntaxTreeNode) -> list[dict[str, Any]]:
    """One top-level node as the template's blocks (a quote gives the blocks inside it)."""
    if node.type == "heading":
        text = spans(inline_of(node))
        level = int(node.tag[1:])
        return [{"kind": "heading", "level": level, "spans": text, "id": slugify(text_of(node))}]
    if node.type == "paragraph":
        return [{"kind": "paragraph", "spans": spans(inline_of(node))}]
    if node.type in ("fence", "code_block"):
        return [{"kind": "code", "text": node.content.rstrip("\n")}]
    if node.type in LIST_KINDS:
        start = int(node.attrs.get("start", 1) or 1)
        items = [list_item(child) for child in node.children]
        return [{"kind": "list", "ordered": node.type == "ordered_list", "start": start, "items": items}]
    if node.type == "table":
        return [table(node)]
    if node.type == "blockquote":
        return [found for child in node.children for found in block(child)]
    return []  # a rule line: the headings already part the page


def parse(markdown: str) -> list[dict[str, Any]]:
    """The page as blocks: heading, paragraph, list, table, code."""
    tree = SyntaxTreeNode(MARKDOWN.parse(markdown))
    return [found for node in tree.children for found in block(node)]


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
