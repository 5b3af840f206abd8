from django.contrib import admin
from django.urls import include, path

from config.views import healthz

urlpatterns = [
    path("admin/", admin.site.urls),
    path("accounts/", include("allauth.urls")),
    # The profile; the vacation and calendar addresses under /me/ are in games.urls (no pattern here shadows them).
    path("me/", include("accounts.urls")),
    path("leagues/", include("leagues.urls")),
    path("healthz", healthz, name="healthz"),
    path("", include("games.urls")),
]
