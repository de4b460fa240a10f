"""The API's URLs of games (under /api/v1/, in the "api" namespace: maatasite/api_urls.py)."""

from django.urls import path

from . import apis

urlpatterns = [
    path("players/<str:username>/games/", apis.PlayerGamesView.as_view(), name="player_games"),
    path("players/<str:username>/archive/", apis.PlayerArchiveView.as_view(), name="player_archive"),
    path("games/", apis.GameListView.as_view(), name="games"),
    path("games/solo/", apis.SoloCreateView.as_view(), name="solo"),
    path("games/<int:game_id>/", apis.GameDetailView.as_view(), name="game"),
    path("games/<int:game_id>/moves/", apis.MoveSubmitView.as_view(), name="moves"),
    path("games/<int:game_id>/conditional/", apis.ConditionalLinesView.as_view(), name="conditional"),
    path("games/<int:game_id>/record/", apis.GameRecordView.as_view(), name="record"),
    path("games/<int:game_id>/record/text/", apis.GameRecordTextView.as_view(), name="record_text"),
    path("games/<int:game_id>/resign/", apis.GameResignView.as_view(), name="resign"),
    path("games/<int:game_id>/abort/", apis.GameAbortView.as_view(), name="abort"),
    path("games/<int:game_id>/draw/offer/", apis.DrawOfferView.as_view(), name="draw_offer"),
    path("games/<int:game_id>/draw/accept/", apis.DrawAcceptView.as_view(), name="draw_accept"),
    path("games/<int:game_id>/draw/decline/", apis.DrawDeclineView.as_view(), name="draw_decline"),
    path("games/<int:game_id>/rematch/", apis.RematchOfferView.as_view(), name="rematch"),
    path("records/", apis.RecordImportView.as_view(), name="records"),
    path("records/<int:record_id>/", apis.ImportedRecordView.as_view(), name="imported_record"),
    path("challenges/", apis.ChallengeListView.as_view(), name="challenges"),
    path("challenges/<int:challenge_id>/", apis.ChallengeDetailView.as_view(), name="challenge"),
    path("challenges/<int:challenge_id>/accept/", apis.ChallengeAcceptView.as_view(), name="challenge_accept"),
    path("challenges/<int:challenge_id>/decline/", apis.ChallengeDeclineView.as_view(), name="challenge_decline"),
    path("challenges/<int:challenge_id>/cancel/", apis.ChallengeCancelView.as_view(), name="challenge_cancel"),
    # polling
    path("events/", apis.EventsView.as_view(), name="events"),
]
