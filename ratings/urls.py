from django.urls import path

from . import views

app_name = "ratings"

urlpatterns = [
    path("<str:kind>/", views.leaderboard, name="leaderboard"),
]
