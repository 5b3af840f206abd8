"""``{% cachedpart "name" key %}…{% endcachedpart %}``: a part of a page kept in the page cache under ``key``.

As Django's ``{% cache %}``, on the ``template_fragments`` cache (config/cache.py, its timeout), with these
differences: the view reads the page's parts at once before it renders (``page_parts``, a
``config.cache.PageParts``), the part is taken from that read, and a rendered one is left to the view to
keep, so a page costs the cache one read and at most one write, not one of each per part; a key that is
None, or a part the view did not read, renders without the cache (a page whose part may not be kept, say a
waiting table); and there is no timeout argument, since keys name what they show and nothing is
invalidated by time. ``key`` comes from the view (``Table.public_key``), never from the request.
"""

from __future__ import annotations

from django import template

register = template.Library()


class CachedPartNode(template.Node):
    def __init__(self, nodelist: template.NodeList, name: str, key: template.base.FilterExpression) -> None:
        self.nodelist, self.name, self.key = nodelist, name, key

    def render(self, context: template.Context) -> str:
        key = self.key.resolve(context)
        parts = context.get("page_parts")
        if key is None or parts is None or not parts.knows(self.name, key):
            return self.nodelist.render(context)
        kept = parts.kept_part(self.name)
        if kept is not None:
            return str(kept)
        rendered = self.nodelist.render(context)
        parts.keep(self.name, rendered)
        return rendered


@register.tag("cachedpart")
def cachedpart(parser: template.base.Parser, token: template.base.Token) -> CachedPartNode:
    bits = token.split_contents()
    if len(bits) != 3 or bits[1][0] not in "\"'" or bits[1][-1] != bits[1][0]:
        raise template.TemplateSyntaxError('Use {% cachedpart "name" key %}…{% endcachedpart %}.')
    nodelist = parser.parse(("endcachedpart",))
    parser.delete_first_token()
    return CachedPartNode(nodelist, bits[1][1:-1], parser.compile_filter(bits[2]))
