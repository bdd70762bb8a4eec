"""The static files app as the site installs it (not in briternia/apps.py: Django picks a package's
AppConfig there only when it is the module's one AppConfig class)."""

from django.contrib.staticfiles.apps import StaticFilesConfig


class BriterniaStaticFilesConfig(StaticFilesConfig):
    """Django's static files app, leaving out of `collectstatic` what the site never serves: ReDoc's
    bundle and its source map (drf-spectacular-sidecar ships it; the API's documentation is Swagger
    UI alone). About 6 MB, and 2 s of CPU at every start-up of the web process (its brotli)."""

    ignore_patterns = [*StaticFilesConfig.ignore_patterns, "drf_spectacular_sidecar/redoc/*"]
