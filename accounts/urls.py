from django.urls import path

from accounts import views

# The profile's own addresses; the vacation and calendar ones under /me/ belong to the app of matches.
urlpatterns = [
    path("", views.profile, name="accounts-profile"),
    path("preferences/", views.preferences, name="accounts-preferences"),
]
