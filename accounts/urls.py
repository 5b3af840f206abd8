from django.urls import path

from accounts import views

urlpatterns = [
    path("", views.profile, name="accounts-profile"),
    path("preferences/", views.preferences, name="accounts-preferences"),
    path("vacation/", views.vacation_on, name="accounts-vacation-start"),
    path("vacation/end/", views.vacation_off, name="accounts-vacation-end"),
    path("calendar/reset/", views.calendar_reset, name="accounts-calendar-reset"),
    path("calendar/<str:token>.ics", views.calendar_feed, name="accounts-calendar"),
]
