"""What `collectstatic` gathers: the apps' static files, less what the site never serves."""

from django.contrib.staticfiles import finders

# ReDoc's bundle and its source map: drf-spectacular-sidecar ships them, but the API's documentation
# is Swagger UI alone. About 6 MB, and 2 s of CPU at every start-up of the web process (its brotli).
NEVER_SERVED = ["drf_spectacular_sidecar/redoc/*"]


class AppDirectoriesFinder(finders.AppDirectoriesFinder):
    """Django's finder of the apps' static/ folders, whose list (what `collectstatic` copies) leaves
    out NEVER_SERVED. The static files app itself stays `django.contrib.staticfiles` in
    INSTALLED_APPS: tools look for that name (pytest-django's live server serves static files only
    then)."""

    def list(self, ignore_patterns):  # type: ignore[no-untyped-def]  # Django's own signature
        return super().list([*(ignore_patterns or []), *NEVER_SERVED])
