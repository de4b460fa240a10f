"""Health check, blocks and reports (namespace "ops")."""

from django.urls import path

from . import views

app_name = "ops"

urlpatterns = [
    path("healthz/", views.healthz, name="healthz"),
    path("floor/", views.floor, name="floor"),
    path("blocks/", views.block_list, name="blocks"),
    path("players/<str:username>/block/", views.block_toggle, name="block"),
    path("players/<str:username>/report/", views.report_player, name="report_player"),
    path("games/<int:game_id>/report/", views.report_game, name="report_game"),
]
