"""Post-game analysis pages (namespace "analysis")."""

from django.urls import path

from . import views

app_name = "analysis"

urlpatterns = [
    path("games/<int:game_id>/analysis/", views.analysis_request, name="request"),
]
