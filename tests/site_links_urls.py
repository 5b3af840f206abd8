"""A URL configuration with only the dashboard (tests/test_site_links.py)."""

from django.urls import path

from games.views import dashboard

urlpatterns = [path("", dashboard, name="games-dashboard")]
