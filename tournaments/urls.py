from django.urls import path

from . import views

app_name = "tournaments"

urlpatterns = [
    path("", views.tournament_list, name="list"),
    path("<int:tournament_id>/", views.tournament_detail, name="detail"),
    path("<int:tournament_id>/rounds/<int:number>/", views.tournament_round, name="round"),
    path("<int:tournament_id>/register/", views.tournament_register, name="register"),
    path("<int:tournament_id>/withdraw/", views.tournament_withdraw, name="withdraw"),
    path("<int:tournament_id>/standings.json", views.tournament_standings_json, name="standings_json"),
]
