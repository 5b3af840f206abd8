"""Leagues arrive in a later issue; the app is registered now so its URLs and migrations have a home."""

from django.urls import URLPattern

urlpatterns: list[URLPattern] = []
