"""PDFs from HTML templates with WeasyPrint (scenario sheets; turn reports build on it).

WeasyPrint lays out HTML and CSS for paged media (A4, running headers, page numbers) without a
browser, so the same Django template serves the page and the PDF.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.template.loader import render_to_string
from weasyprint import HTML


def pdf_render(template: str, context: dict[str, Any]) -> bytes:
    """Render `template` with `context` to PDF bytes."""
    html = render_to_string(template, context)
    return HTML(string=html, base_url=str(settings.BASE_DIR)).write_pdf()
