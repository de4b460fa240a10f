"""The ladder app's paths under /api/v1/ (URL names in the "api" namespace)."""

from django.urls import path

from . import apis

urlpatterns = [
    path("ladders/", apis.LadderListView.as_view(), name="ladders"),
    path("ladders/<int:ladder_id>/", apis.LadderDetailView.as_view(), name="ladder"),
    path("ladders/<int:ladder_id>/standings/", apis.LadderStandingsView.as_view(), name="ladder_standings"),
    path("ladders/<int:ladder_id>/games/", apis.LadderGamesView.as_view(), name="ladder_games"),
    path("ladders/<int:ladder_id>/join/", apis.LadderJoinView.as_view(), name="ladder_join"),
    path("ladders/<int:ladder_id>/leave/", apis.LadderLeaveView.as_view(), name="ladder_leave"),
    path("ladders/<int:ladder_id>/challenges/", apis.LadderChallengeView.as_view(), name="ladder_challenge"),
]
