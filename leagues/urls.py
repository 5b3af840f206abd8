"""League pages under /leagues/: a club at c/<club>/, its leagues at c/<club>/l/<league>/, seasons by number.

The c/ and l/ prefixes keep any slug from shadowing a page (a club called "Invite", a league called "Members").
"""

from django.urls import include, path

from leagues import organize_views, substitute_views, views, views_export

season = [
    path("", views.season_detail, name="leagues-season"),
    path("registration/", views.season_registration, name="leagues-season-registration"),
    path("register/", views.season_register, name="leagues-season-register"),
    path("withdraw/", views.season_withdraw, name="leagues-season-withdraw"),
    path("fixtures/", views.fixtures, name="leagues-fixtures"),
    path("fixtures/generate/", views.fixtures_generate, name="leagues-fixtures-generate"),
    path("rounds/<id:round_id>/dates/", views.round_dates, name="leagues-round-dates"),
    path("entrants/<id:entrant_id>/division/", views.entrant_division, name="leagues-entrant-division"),
    path("start/", views.season_start, name="leagues-season-start"),
    path("organize/", views.season_organize, name="leagues-season-organize"),
    path("edit/", organize_views.season_edit, name="leagues-season-edit"),
    path("rounds/<id:round_id>/open/", organize_views.round_open, name="leagues-round-open"),
    path("rounds/<id:round_id>/settle/", organize_views.round_settle, name="leagues-round-settle"),
    path("divisions/seed/", organize_views.divisions_seed, name="leagues-divisions-seed"),
    path("tables/<id:fixture_id>/result/", views.result, name="leagues-result"),
    path("finish/", views.season_finish, name="leagues-season-finish"),
    path("standings/", views.standings, name="leagues-standings"),
    path("standings.csv", views.standings_export, {"fmt": "csv"}, name="leagues-standings-csv"),
    path("standings.json", views.standings_export, {"fmt": "json"}, name="leagues-standings-json"),
    path("results.csv", views_export.results_export, name="leagues-results-csv"),
    path("players/<id:user_id>/", views.player, name="leagues-player"),
    path("availability/", substitute_views.availability, name="leagues-availability"),
    path("substitutes/volunteer/", substitute_views.volunteer, name="leagues-substitute-volunteer"),
    path("substitutes/", substitute_views.pool, name="leagues-substitutes"),
]

urlpatterns = [
    path("", views.clubs, name="leagues-clubs"),
    path("clubs/new/", views.club_create, name="leagues-club-create"),
    path("invite/<str:token>/", views.invite, name="leagues-invite"),
    path("offers/<str:token>/", substitute_views.seat_offer, name="leagues-seat-offer"),
    path("c/<slug:club_slug>/", views.club_detail, name="leagues-club"),
    path("c/<slug:club_slug>/join/", views.club_join, name="leagues-club-join"),
    path("c/<slug:club_slug>/invite/", views.club_invite, name="leagues-club-invite"),
    path("c/<slug:club_slug>/members/", views.members, name="leagues-members"),
    path(
        "c/<slug:club_slug>/invitations/<id:invitation_id>/resend/",
        views.invitation_change,
        {"action": "resend"},
        name="leagues-invitation-resend",
    ),
    path(
        "c/<slug:club_slug>/invitations/<id:invitation_id>/cancel/",
        views.invitation_change,
        {"action": "cancel"},
        name="leagues-invitation-cancel",
    ),
    path("c/<slug:club_slug>/members/<id:user_id>/role/", views.member_role, name="leagues-member-role"),
    path("c/<slug:club_slug>/members/<id:user_id>/remove/", views.member_remove, name="leagues-member-remove"),
    path("c/<slug:club_slug>/new-league/", views.league_create, name="leagues-league-create"),
    path("c/<slug:club_slug>/l/<slug:league_slug>/", views.league_detail, name="leagues-league"),
    path("c/<slug:club_slug>/l/<slug:league_slug>/edit/", views.league_edit, name="leagues-league-edit"),
    path("c/<slug:club_slug>/l/<slug:league_slug>/seasons/new/", views.season_create, name="leagues-season-create"),
    path("c/<slug:club_slug>/l/<slug:league_slug>/<id:number>/", include(season)),
]
