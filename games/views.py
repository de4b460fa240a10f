from django.shortcuts import render


def home(request):
    return render(request, "games/home.html")


def lobby(request):
    return render(request, "games/lobby.html")
