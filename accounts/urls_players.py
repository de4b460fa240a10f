"""Public player pages, at /players/<username>/ (namespace "players")."""

from django.urls import path

from . import views

app_name = "players"

urlpatterns = [
    path("<str:username>/", views.player_detail, name="detail"),
]
