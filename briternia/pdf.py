"""PDFs from HTML templates with WeasyPrint (scenario sheets; turn reports build on it).

WeasyPrint lays out HTML and CSS for paged media (A4, running headers, page numbers) without a
browser, so the same Django template serves the page and the PDF.
"""

from __future__ import annotations

import io
import re
from typing import Any

from django.conf import settings
from django.template.loader import render_to_string
from weasyprint import HTML


def pdf_render(template: str, context: dict[str, Any]) -> bytes:
    """Render `template` with `context` to a tagged PDF: its structure (headings, tables, figures with
    their alternative text from `alt` or an SVG's <title>) and its language go into the file, so a
    screen reader reads a report as it reads the page. Tagging costs next to nothing here (measured
    on the demo's reports: 0.2 s a report either way)."""
    html = render_to_string(template, context)
    return HTML(string=html, base_url=str(settings.BASE_DIR)).write_pdf(pdf_tags=True)


# The reports print the map 150 mm wide: 1,400 pixels is about 240 dpi there, sharp on paper,
# while a bigger picture only slows every report down (a 400-province map is 2,100 units wide).
MAP_PICTURE_WIDTH = 1400


def svg_to_png(svg: str, *, width: int = MAP_PICTURE_WIDTH) -> bytes:
    """A picture of an SVG drawing: laid out once by WeasyPrint on a page of its own size, then
    rasterized by PDFium (pypdfium2). Reports embed the picture: drawing a big map's hundreds of
    labels costs WeasyPrint about 2 ms each, on every report that shows it."""
    import pypdfium2

    size = re.search(r'width="(\d+(?:\.\d+)?)" height="(\d+(?:\.\d+)?)"', svg)
    if size is None:
        raise ValueError("The SVG has no width and height.")
    svg_width, svg_height = size.groups()
    page = f"<style>@page {{ size: {svg_width}px {svg_height}px; margin: 0 }} body {{ margin: 0 }}</style>{svg}"
    document = pypdfium2.PdfDocument(HTML(string=page).write_pdf())
    try:
        # PDFium draws 1 point per pixel at scale 1; the page is the SVG's size in CSS pixels (0.75 pt).
        image = document[0].render(scale=width / (float(svg_width) * 0.75)).to_pil()
    finally:
        document.close()
    buffer = io.BytesIO()
    image.save(buffer, format="PNG")
    return buffer.getvalue()
