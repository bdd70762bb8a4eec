from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from kingdoms.views import PasswordSetView

urlpatterns = [
    path("admin/", admin.site.urls),
    # The set-password link of an invitation asks for the display name too.
    path("accounts/reset/<uidb64>/<token>/", PasswordSetView.as_view(), name="password_reset_confirm"),
    path("accounts/", include("django.contrib.auth.urls")),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("api/docs/", SpectacularSwaggerSplitView.as_view(url_name="api-schema"), name="api-docs"),
    path("api/", include("kingdoms.api_urls")),
    path("api/", include("diplomacy.api_urls")),
    path("api/", include("orders.api_urls")),
    path("api/", include("battles.api_urls")),
    path("api/", include("reports.api_urls")),
    path("api/", include("turns.api_urls")),
    path("", include("kingdoms.urls")),
    path("", include("diplomacy.urls")),
    path("", include("orders.urls")),
    path("", include("battles.urls")),
    path("", include("reports.urls")),
    path("", include("inbox.urls")),
    path("", include("turns.urls")),
    path("", include("transfer.urls")),
]
