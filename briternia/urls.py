from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

urlpatterns = [
    path("admin/", admin.site.urls),
    path("accounts/", include("django.contrib.auth.urls")),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="api-schema"), name="api-docs"),
    path("api/", include("kingdoms.api_urls")),
    path("api/", include("orders.api_urls")),
    path("api/", include("battles.api_urls")),
    path("api/", include("reports.api_urls")),
    path("api/", include("turns.api_urls")),
    path("", include("kingdoms.urls")),
    path("", include("orders.urls")),
    path("", include("battles.urls")),
    path("", include("reports.urls")),
    path("", include("turns.urls")),
]
