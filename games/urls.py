from django.urls import path

from games import views, views_account, views_mail

urlpatterns = [
    path("", views.dashboard, name="games-dashboard"),
    path("next/", views.next_match, name="games-next"),
    path("new/", views.create, name="games-create"),
    path("invite/<str:token>/", views.invite, name="games-invite"),
    path("invite/<str:token>/decline/", views.invite_decline, name="games-invite-decline"),
    path("m/<id:match_id>/seat/<id:number>/<str:action>/", views.seat_manage, name="games-seat-manage"),
    path("rules/<str:game>/", views.rules, name="games-rules"),
    path("m/<id:match_id>/", views.match_detail, name="games-match"),
    path("m/<id:match_id>/poll/", views.poll, name="games-poll"),
    path("m/<id:match_id>/play/", views.play, name="games-play"),
    path("m/<id:match_id>/chat/", views.chat, name="games-chat"),
    path("m/<id:match_id>/reclaim/", views.reclaim, name="games-reclaim"),
    path("m/<id:match_id>/log/", views.full_log, name="games-log"),
    path("m/<id:match_id>/replay/", views.replay, name="games-replay"),
    path("m/<id:match_id>/export.json", views.export, name="games-export"),
    # A move from a turn mail: the signed token is the credential for that one move (games.maillinks).
    path("mail/move/<str:token>/", views_mail.mail_move, name="games-mail-move"),
    path("sw.js", views_mail.service_worker, name="games-service-worker"),
    path("push/subscription/", views_mail.push_subscription, name="games-push-subscription"),
    path("notice/test/", views_mail.test_notice, name="games-notice-test"),
    # The player's own match settings, under the profile's /me/ (accounts.urls holds only the profile itself).
    path("me/vacation/", views_account.vacation_on, name="games-vacation-start"),
    path("me/vacation/end/", views_account.vacation_off, name="games-vacation-end"),
    path("me/calendar/reset/", views_account.calendar_reset, name="games-calendar-reset"),
    path("me/calendar/<str:token>.ics", views_account.calendar_feed, name="games-calendar"),
]
