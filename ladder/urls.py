from django.urls import path

from . import views

app_name = "ladder"

urlpatterns = [
    path("", views.ladder_list, name="list"),
    path("<int:ladder_id>/", views.ladder_detail, name="detail"),
    path("<int:ladder_id>/join/", views.ladder_join, name="join"),
    path("<int:ladder_id>/leave/", views.ladder_leave, name="leave"),
    path("<int:ladder_id>/challenge/<int:user_id>/", views.ladder_challenge, name="challenge"),
]
