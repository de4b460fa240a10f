from django.urls import path

from . import views

app_name = "games"

urlpatterns = [
    path("", views.home, name="home"),
    path("lobby/", views.lobby, name="lobby"),
    path("rules/", views.rules, name="rules"),
    path("games/<int:game_id>/", views.game_detail, name="game"),
    path("games/<int:game_id>/move/", views.game_move, name="move"),
    path("games/<int:game_id>/moves/", views.game_moves, name="moves"),
    path("games/<int:game_id>/previews.json", views.game_previews, name="previews"),
    path("games/<int:game_id>/status.json", views.game_status, name="status"),
    path("games/<int:game_id>/record.<str:form>", views.game_record_download, name="record"),
    path("records/import/", views.record_import, name="record_import"),
    path("records/<int:record_id>/", views.record_board, name="imported"),
    path("games/<int:game_id>/conditional/", views.game_conditional, name="conditional"),
    path(
        "games/<int:game_id>/conditional/position.json",
        views.game_conditional_position,
        name="conditional_position",
    ),
    path("games/<int:game_id>/resign/", views.game_resign, name="resign"),
    path("games/<int:game_id>/abort/", views.game_abort, name="abort"),
    path("games/<int:game_id>/draw/offer/", views.draw_offer, name="draw_offer"),
    path("games/<int:game_id>/draw/accept/", views.draw_accept, name="draw_accept"),
    path("games/<int:game_id>/draw/decline/", views.draw_decline, name="draw_decline"),
    path("games/<int:game_id>/rematch/", views.rematch_offer, name="rematch"),
    path("challenges/new/", views.challenge_new, name="challenge_new"),
    path("challenges/<int:challenge_id>/accept/", views.challenge_accept, name="challenge_accept"),
    path("challenges/<int:challenge_id>/decline/", views.challenge_decline, name="challenge_decline"),
    path("challenges/<int:challenge_id>/cancel/", views.challenge_cancel, name="challenge_cancel"),
    path("solo/new/", views.solo_new, name="solo_new"),
    path("history/<str:username>/", views.player_history, name="history"),
]
